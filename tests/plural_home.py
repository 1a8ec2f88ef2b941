"""Things of a user's home each named in the plural, one of every kind a follow-up can act on, as ESPHome announces
them over Home Assistant MQTT discovery (under the topic prefix the shipped ACL allows): fairy lights, lava lamps,
patio heaters on a switch, study blinds that take a position, French doors on a lock, ceiling fans, radiators and
sprinklers on a valve; so that "turn them off" or "are they open" after one of them stands for it."""


def _esphome(component: str, object_id: str, name: str, area: str, **config) -> tuple[str, str, dict]:
    return (component, f"plural-node/{object_id}", {
        "~": f"esphome/plural-node/{component}/{object_id}", "name": name, "uniq_id": f"ESP{component}{object_id}",
        **config, "dev": {"ids": f"plural{object_id}", "name": name, "sa": area, "mf": "espressif", "mdl": "esp32dev"}})


FAIRY_LIGHTS = _esphome("light", "fairy_lights", "Fairy Lights", "Veranda", stat_t="~/state", cmd_t="~/command",
                        bri_stat_t="~/brightness/state", bri_cmd_t="~/brightness/command")
LAVA_LAMPS = _esphome("light", "lava_lamps", "Lava Lamps", "Den", stat_t="~/state", cmd_t="~/command")
PATIO_HEATERS = _esphome("switch", "patio_heaters", "Patio Heaters", "Veranda", stat_t="~/state", cmd_t="~/command")
STUDY_BLINDS = _esphome("cover", "study_blinds", "Study Blinds", "Study", stat_t="~/state", cmd_t="~/command",
                        pos_t="~/position/state", set_pos_t="~/position/command", dev_cla="blind")
FRENCH_DOORS = _esphome("lock", "french_doors", "French Doors", "Veranda", stat_t="~/state", cmd_t="~/command")
CEILING_FANS = _esphome("fan", "ceiling_fans", "Ceiling Fans", "Den", stat_t="~/state", cmd_t="~/command")
RADIATORS = _esphome("climate", "radiators", "Radiators", "Den", temp_cmd_t="~/target_temperature/command",
                     temp_stat_t="~/target_temperature/state", min_temp=10, max_temp=30)
SPRINKLERS = _esphome("valve", "sprinklers", "Sprinklers", "Garden", stat_t="~/state", cmd_t="~/command")
PLURALS = [FAIRY_LIGHTS, LAVA_LAMPS, PATIO_HEATERS, STUDY_BLINDS, FRENCH_DOORS, CEILING_FANS, RADIATORS, SPRINKLERS]
