"""Telephone transports: the shared call bridge (calls), Twilio Media Streams and Asterisk AudioSocket."""
