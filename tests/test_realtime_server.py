"""The server over real loopback sockets: Realtime WebSocket, auth, limits, health, metrics, static page."""
import asyncio
import aiohttp
import pytest

from realtime_client import RealtimeClient, sessions_ended


def words(text):
    return [w.strip(".,?!").lower() for w in text.split()]


async def test_healthz_and_metrics(live_server):
    async with aiohttp.ClientSession() as http:
        async with http.get(live_server.url + "/healthz") as response:
            assert response.status == 200
            health = await response.json()
        async with http.get(live_server.url + "/metrics") as response:
            assert response.status == 200 and response.content_type == "text/plain"
            text = await response.text()
    assert health["status"] == "ok" and isinstance(health["sessions"], int)
    assert "parley_sessions_active" in text and "parley_turn_stage_seconds" in text


async def test_web_page_is_served(live_server):
    if not (live_server.ctx.config.web_dir / "index.html").exists():
        pytest.skip("web/ has no index.html")
    async with aiohttp.ClientSession() as http:
        async with http.get(live_server.url + "/") as response:
            assert response.status == 200 and "html" in response.content_type
        async with http.get(live_server.url + "/app.js") as response:
            assert response.status == 200 and "javascript" in response.content_type


async def test_spoken_turn_over_the_socket(live_server, speech):
    client = await RealtimeClient.connect(live_server.ws_url + "?model=parley-home")
    created = await client.wait_for("session.created")
    assert created["session"]["model"] == "parley-home"
    await client.send({"type": "session.update", "session": {"type": "realtime", "audio": {"input": {
        "turn_detection": {"type": "server_vad", "create_response": False}}}}})
    await client.wait_for("session.updated")
    await client.stream_audio(speech.piper("Turn off the bedroom fan."), 24000)
    done = await client.wait_for("conversation.item.input_audio_transcription.completed")
    started = client.of_type("input_audio_buffer.speech_started")[0]
    committed = client.of_type("input_audio_buffer.committed")[0]
    assert started["item_id"] == committed["item_id"] == done["item_id"]
    assert words(done["transcript"]) == ["turn", "off", "the", "bedroom", "fan"]
    await client.close()


async def test_bad_messages_get_errors_and_the_session_goes_on(live_server, speech):
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send_raw("{this is not json")
    await client.send({"type": "conversation.launch_rockets"})
    await client.send({"type": "input_audio_buffer.append", "audio": "%%%"})
    await client.send({"type": "session.update", "session": {"audio": {"input": {"format": {"type": "audio/mp3"}}}}})
    await client.ws.send_bytes(b"\x00\x01\x02")
    await client.send({"type": "input_audio_buffer.commit"})          # nothing buffered
    await client.wait_for("error", where=lambda e: e["error"]["code"] == "input_audio_buffer_commit_empty")
    codes = [e["error"]["code"] for e in client.of_type("error")]
    assert codes == ["invalid_json", "unknown_event", "invalid_base64", "invalid_value", "invalid_event",
                     "input_audio_buffer_commit_empty"]
    # still a working session: manual commit of real speech gets transcribed
    await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
    # flite rms, not Piper: Piper samples its voice, and Whisper sometimes writes a short sentence twice
    # ("Good night. Good night."), which this test of a session that goes on is not about
    await client.stream_audio(speech.flite("Good night.", voice="rms", lead_ms=300, tail_ms=300), 24000)
    await client.send({"type": "input_audio_buffer.commit"})
    done = await client.wait_for("conversation.item.input_audio_transcription.completed")
    assert words(done["transcript"]) == ["good", "night"]
    await client.close()


async def test_a_short_sentence_whisper_writes_twice_is_heard_once(live_server, speech):
    """Whisper writes flite slt's "Good night." as "Good night. Good night.": one sentence twice in a row is kept
    once (voice/heard_text.py)."""
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
    await client.stream_audio(speech.flite("Good night.", voice="slt", lead_ms=300, tail_ms=300), 24000)
    await client.send({"type": "input_audio_buffer.commit"})
    done = await client.wait_for("conversation.item.input_audio_transcription.completed")
    assert words(done["transcript"]) == ["good", "night"], done["transcript"]
    await client.close()


async def test_oversized_messages(server_factory):
    server = server_factory(max_message_bytes=64 * 1024)
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    await client.send({"type": "input_audio_buffer.append", "audio": "AAAA" * 40_000})     # 160 kB: over the limit
    error = await client.wait_for("error")
    assert error["error"]["code"] == "message_too_large"
    await client.send({"type": "session.update", "session": {"instructions": "still here"}})
    updated = await client.wait_for("session.updated")
    assert updated["session"]["instructions"] == "still here"
    # far beyond the limit the socket is closed (1009), and the server serves the next client
    await client.send_raw("x" * (1024 * 1024))
    await asyncio.wait_for(client.closed.wait(), 10)
    assert client.ws.close_code == 1009
    await client.close()
    other = await RealtimeClient.connect(server.ws_url)
    await other.wait_for("session.created")
    await other.close()


async def test_api_key_and_client_secrets(server_factory):
    server = server_factory(api_key="sk-parley-test")
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await RealtimeClient.connect(server.ws_url)
    assert refused.value.status == 401
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await RealtimeClient.connect(server.ws_url, headers={"Authorization": "Bearer wrong"})
    client = await RealtimeClient.connect(server.ws_url, headers={"Authorization": "Bearer sk-parley-test"})
    await client.wait_for("session.created")
    await client.close()

    async with aiohttp.ClientSession() as http:
        async with http.post(server.url + "/v1/realtime/client_secrets", json={}) as response:
            assert response.status == 401
        async with http.post(server.url + "/v1/realtime/client_secrets",
                             headers={"Authorization": "Bearer sk-parley-test"},
                             json={"expires_after": {"anchor": "created_at", "seconds": 60}}) as response:
            assert response.status == 200
            secret = await response.json()
    assert secret["value"].startswith("ek_") and secret["expires_at"] > 0
    # browsers pass the token as a subprotocol; the server must pick "realtime"
    browser = await RealtimeClient.connect(server.ws_url,
                                           protocols=("realtime", "openai-insecure-api-key." + secret["value"]))
    assert browser.ws.protocol == "realtime"
    await browser.wait_for("session.created")
    await browser.close()
    async with aiohttp.ClientSession() as http:      # a secret opens one session: mint another
        async with http.post(server.url + "/v1/realtime/client_secrets",
                             headers={"Authorization": "Bearer sk-parley-test"}, json={}) as response:
            secret = await response.json()
    query = await RealtimeClient.connect(server.ws_url + "?client_secret=" + secret["value"])
    await query.wait_for("session.created")
    await query.close()
    async with aiohttp.ClientSession() as http:      # a client secret cannot mint more secrets
        async with http.post(server.url + "/v1/realtime/client_secrets",
                             headers={"Authorization": "Bearer " + secret["value"]}, json={}) as response:
            assert response.status == 401


async def test_closing_the_socket_ends_the_session(live_server):
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send({"type": "input_audio_buffer.append", "audio": "AAAAAA=="})
    await client.close()
    await sessions_ended(live_server)
    assert live_server.session_tasks() == [] and not live_server.ctx.sessions


async def test_metrics_count_sessions_and_errors(live_server):
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send_raw("nope")
    await client.wait_for("error")
    async with aiohttp.ClientSession() as http:
        async with http.get(live_server.url + "/metrics") as response:
            text = await response.text()
    assert 'parley_sessions_active{transport="realtime"}' in text
    assert 'parley_errors_total{code="invalid_json"}' in text
    await client.close()


async def test_shutdown_closes_sockets_with_going_away(server_factory):
    server = server_factory()
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    await asyncio.get_running_loop().run_in_executor(None, server.stop)
    await asyncio.wait_for(client.closed.wait(), 10)
    assert client.ws.close_code == 1001
    assert not server.ctx.sessions
    server.stop()                                                     # idempotent
    await client.close()


async def test_session_duration_limit(server_factory):
    from streaming.session import SessionLimits

    server = server_factory(limits=SessionLimits(max_duration_s=1.0))
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    error = await client.wait_for("error", timeout=10)
    assert error["error"]["code"] == "session_expired"
    await asyncio.wait_for(client.closed.wait(), 10)
    assert client.ws.close_code == 1000
    await client.close()
