"""Media players as the community MQTT media player bridge announces them over Home Assistant MQTT discovery (Home
Assistant's own MQTT integration has none): a kitchen speaker in bkbilly's mqtt_media_player shape
(`state_state_topic`, `command_play_topic` with `command_play_payload`, its volume 0 to 1), a living room TV in the
bridge's older shape (`state_topic`, `volume_topic` / `volumeset_topic`, `play_topic` / `pause_topic` / `next_topic` /
`previous_topic`, `title_topic`, `artist_topic`) and a soundbar that takes only play, pause and its volume, all under
the topic prefixes the shipped ACL allows."""


def _bridge(player: str, name: str, area: str, **config) -> tuple[str, str, dict]:
    return ("media_player", player, {"name": name, "unique_id": f"mqtt_media_player_{player}",
                                     "device": {"identifiers": [player], "name": name, "suggested_area": area},
                                     **config})


KITCHEN_SPEAKER = _bridge(
    "kitchen_speaker", "Kitchen Speaker", "Kitchen", state_state_topic="mediaplayer/kitchen/state",
    state_title_topic="mediaplayer/kitchen/title", state_artist_topic="mediaplayer/kitchen/artist",
    state_volume_topic="mediaplayer/kitchen/volume", command_volume_topic="mediaplayer/kitchen/set_volume",
    **{f"command_{verb}_{part}": f"mediaplayer/kitchen/{verb}" if part == "topic" else verb
       for verb in ("play", "pause", "next", "previous") for part in ("topic", "payload")})
LIVING_ROOM_TV = _bridge(
    "living_room_tv", "Living Room TV", "Living Room", state_topic="mediaplayer/tv/state",
    title_topic="mediaplayer/tv/title", artist_topic="mediaplayer/tv/artist", volume_topic="mediaplayer/tv/volume",
    volumeset_topic="mediaplayer/tv/volumeset", play_topic="mediaplayer/tv/play", pause_topic="mediaplayer/tv/pause",
    next_topic="mediaplayer/tv/next", previous_topic="mediaplayer/tv/previous")
SOUNDBAR = _bridge(
    "soundbar", "Soundbar", "Lounge", state_state_topic="mediaplayer/soundbar/state",
    state_volume_topic="mediaplayer/soundbar/volume", command_volume_topic="mediaplayer/soundbar/set_volume",
    command_play_topic="mediaplayer/soundbar/play", command_pause_topic="mediaplayer/soundbar/pause")
PLAYERS = [KITCHEN_SPEAKER, LIVING_ROOM_TV, SOUNDBAR]
