"""Transports: each turns one wire protocol into session events and back; none reaches into an engine."""
