"""Generated client tools for the corpus, as data: a tool is any verb with any noun of broad everyday lists.

The hand-written domains of assistant/invented_tools.py teach a few dozen kinds of tool by their words; a
small model then calls only those kinds. Tools built from hundreds of verbs and nouns, asked for in frames
that use the tool's own words, teach it to match a request's words to the declaration's: a call when the
request says the tool's verb and noun, a refusal when it says the noun with another verb, the verb with
another noun, or neither. The pairs need not make sense ("water the invoice"); the matching must.

VERBS: "base:past" (the past for "i need the parcel tracked"). No verb or noun is a function word of
assistant/client_tools.py, which matching ignores.
"""

VERBS = [v.split(":") for v in """
track:tracked water:watered feed:fed lock:locked unlock:unlocked renew:renewed refill:refilled
cancel:cancelled schedule:scheduled reschedule:rescheduled book:booked order:ordered reorder:reordered
charge:charged start:started stop:stopped pause:paused resume:resumed restart:restarted reset:reset
arm:armed disarm:disarmed open:opened close:closed heat:heated cool:cooled clean:cleaned wash:washed
dry:dried fill:filled empty:emptied drain:drained mow:mowed trim:trimmed prune:pruned plant:planted
harvest:harvested spray:sprayed sweep:swept vacuum:vacuumed mop:mopped scrub:scrubbed polish:polished
park:parked tow:towed wax:waxed inspect:inspected service:serviced repair:repaired fix:fixed
replace:replaced install:installed update:updated upgrade:upgraded download:downloaded upload:uploaded
sync:synced backup:backed scan:scanned print:printed copy:copied share:shared post:posted publish:published
archive:archived delete:deleted rename:renamed sort:sorted tag:tagged label:labelled file:filed
submit:submitted approve:approved reject:rejected sign:signed verify:verified confirm:confirmed
register:registered enroll:enrolled join:joined leave:left follow:followed unfollow:unfollowed
mute:muted unmute:unmuted block:blocked report:reported flag:flagged pin:pinned star:starred
rate:rated review:reviewed bookmark:bookmarked subscribe:subscribed unsubscribe:unsubscribed
pay:paid transfer:transferred deposit:deposited withdraw:withdrawn invest:invested budget:budgeted
split:split refund:refunded invoice:invoiced bill:billed donate:donated tip:tipped
rent:rented lease:leased borrow:borrowed lend:lent return:returned ship:shipped deliver:delivered
pack:packed unpack:unpacked weigh:weighed measure:measured count:counted log:logged record:recorded
monitor:monitored watch:watched test:tested calibrate:calibrated adjust:adjusted
dim:dimmed brighten:brightened boost:boosted lower:lowered raise:raised tilt:tilted rotate:rotated
walk:walked groom:groomed bathe:bathed train:trained vaccinate:vaccinated adopt:adopted
brew:brewed bake:baked roast:roasted grill:grilled boil:boiled steam:steamed blend:blended chill:chilled
defrost:defrosted freeze:froze marinate:marinated slice:sliced
call:called dial:dialled page:paged notify:notified alert:alerted remind:reminded invite:invited
greet:greeted congratulate:congratulated wake:woken
stream:streamed cast:cast mirror:mirrored project:projected zoom:zoomed focus:focused
translate:translated summarize:summarized explain:explained spell:spelled pronounce:pronounced
search:searched browse:browsed locate:located ping:pinged trace:traced map:mapped
navigate:navigated route:routed drive:driven ride:ridden fly:flown hail:hailed
reserve:reserved hold:held release:released claim:claimed redeem:redeemed activate:activated
deactivate:deactivated enable:enabled disable:disabled toggle:toggled lift:lifted
compost:composted fertilize:fertilized irrigate:irrigated weed:weeded seed:seeded rake:raked
collect:collected gather:gathered stack:stacked load:loaded unload:unloaded tune:tuned
encrypt:encrypted decrypt:decrypted compress:compressed convert:converted export:exported
import:imported merge:merged draft:drafted edit:edited proofread:proofread
grade:graded quiz:quizzed study:studied practise:practised rehearse:rehearsed
""".split()]

NOUNS = """
parcel package delivery shipment letter mailbox garden lawn hedge roses tomatoes greenhouse sprinkler hose
pet dog cat puppy kitten parrot hamster goldfish aquarium litter feeder car truck van bike scooter motorbike
boat trailer tyres tires garage driveway gate fence shed pool hot_tub sauna prescription medication pills
vitamins inhaler insulin appointment checkup vaccine subscription membership license passport visa permit
ticket boarding_pass reservation booking flight train_ticket bus_pass seat table room suite cabin locker
invoice receipt bill payment refund transfer deposit loan mortgage budget savings pension wallet card
account password profile avatar username inbox email newsletter draft document spreadsheet presentation
report contract form file folder photo album video clip recording playlist podcast episode audiobook
ebook library_book magazine comic course lesson homework assignment exam quiz flashcards essay thesis
recipe meal groceries pantry fridge freezer oven stove kettle toaster dishwasher microwave coffee_maker
blender laundry washer dryer iron vacuum robot mop carpet curtains windows shutters awning chimney
fireplace boiler furnace heater radiator thermostat humidifier dehumidifier purifier fan air_filter
alarm doorbell intercom camera sensor smoke_detector battery charger generator solar_panels inverter meter
router modem wifi printer scanner laptop tablet phone watch headphones speaker tv projector console
controller keyboard mouse monitor backup server website domain app update firmware plugin extension
calendar agenda meeting event party wedding birthday anniversary holiday vacation trip itinerary
luggage suitcase hotel campsite tent kayak skis surfboard gym workout run swim hike yoga_class
steps calories weight sleep water_intake heart_rate blood_pressure mood journal diary habit goal
chore errand task shopping_list wishlist cart order coupon voucher gift_card points reward donation
charity petition vote survey poll feedback review rating complaint ticket_queue support_case
invoice_batch timesheet shift schedule roster payroll expense mileage fuel parking toll charging_station
plants herbs seeds compost soil fertilizer bird_feeder beehive chickens eggs horse stable
piano guitar violin drums lesson_plan choir band concert gig tickets stage
bins recycling trash compost_bin water_heater sump_pump septic_tank gutters roof attic basement
""".split()

# Parameters of a generated tool: name choices and the kind of value said for it (assistant.invented_tools
# VALUES kinds; "made_up": words the model has never read; "number": a number said).
PARAMETERS = [
    (["name", "label", "title", "nickname"], "made_up"),
    (["city", "location", "town"], "city"),
    (["destination", "address", "place"], "place"),
    (["contact", "recipient", "person", "owner"], "contact"),
    (["note", "message", "comment", "text"], "message"),
    (["amount", "quantity", "count", "minutes", "level", "size"], "number"),
    (["day", "date", "when"], "day"),
    (["zone", "area", "section", "bay"], "made_up"),
    (["item", "product", "thing"], "item"),
    (["topic", "subject", "category"], "topic"),
]

# A generated tool's description: {verb} and {noun} as the name has them, {Verb} capitalised.
DESCRIPTIONS = [
    "{Verb} the user's {noun}", "{Verb} a {noun}", "{Verb} the {noun} remotely", "{Verb} your {noun}",
    "Lets the user {verb} a {noun}", "{Verb} the {noun} by {parameter}", "{Verb} a {noun} for the account",
    "{Verb} the connected {noun}", "Use this to {verb} the {noun}", "{Verb} {noun} via the service",
    "{Verb} one of the user's {noun}s", "Request to {verb} a {noun}",
]

# Requests for a generated tool of no parameter ({verb}, {past}, {noun}).
ASKS = [
    "{verb} my {noun}", "can you {verb} my {noun}", "please {verb} the {noun}", "{verb} the {noun}",
    "i need the {noun} {past}", "could you {verb} the {noun} for me", "i want to {verb} my {noun}",
    "{verb} the {noun} please", "go ahead and {verb} the {noun}", "time to {verb} the {noun}",
    "would you {verb} our {noun}", "get the {noun} {past}", "i'd like to {verb} my {noun}",
    "hey {verb} the {noun}", "{verb} {noun}", "let's {verb} the {noun}", "have the {noun} {past}",
]
# Requests with one value ({0}); {parameter}: the parameter's name as words.
ASKS_ONE = [
    "{verb} the {noun} for {0}", "{verb} my {noun} in {0}", "can you {verb} the {noun} called {0}",
    "{verb} the {noun} with {parameter} {0}", "i need the {noun} for {0} {past}", "{verb} {0} {noun}",
    "please {verb} the {noun} at {0}", "could you {verb} my {noun} {0}", "{verb} the {noun} {parameter} {0}",
    "{verb} a {noun} for {0}", "i want to {verb} the {noun} named {0}", "{verb} the {noun} to {0}",
    "set the {parameter} to {0} and {verb} the {noun}", "{verb} {noun} {0}",
]
# Requests with two values ({0}, {1}).
ASKS_TWO = [
    "{verb} the {noun} for {0} with {parameter1} {1}", "{verb} my {noun} in {0} {parameter1} {1}",
    "can you {verb} the {noun} {parameter} {0} {parameter1} {1}", "{verb} a {noun} for {0} and {1}",
]
