"""MQTT: the broker connection, voice satellites and the home devices."""
