"""`HttpRobot`: each skill call is one JSON POST to a robot server (a ROS 2 node, any stack).

`POST {url}/{skill}` with the call's arguments as a JSON object
(`{"object": "orange1"}`), answered with a `SkillResult` as JSON
(docs/execute.md has the schema of every call and of the reply). The
standard library's HTTP client runs in a thread, so nothing needs
installing. A server that cannot be reached, answers with an HTTP error or
does not answer within `timeout` raises RobotUnavailableError; a reply that
is not JSON of the documented shape raises RobotReplyError.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from http.client import HTTPException
from typing import Any
from urllib.parse import urlsplit

from sceneplan.errors import BadInputError
from sceneplan.execute.robot import Robot
from sceneplan.execute.skills import (
    RobotReplyError,
    RobotUnavailableError,
    SkillCall,
    SkillResult,
)
from sceneplan.textinput import parse_json, read_body

TIMEOUT_S = 60.0  # a skill may take a while on a real robot (navigation across a building)
MAX_REPLY_BYTES = 64 << 20  # a reply listing MAX_ITEMS objects is about 10 MB


class HttpRobot(Robot):
    """A robot behind an HTTP server that speaks the skill protocol."""

    name = "http"

    def __init__(self, url: str, timeout: float = TIMEOUT_S) -> None:
        try:
            parsed = urlsplit(url)
            parsed.port  # noqa: B018 (raises ValueError for a port that is not one)
        except ValueError as exc:  # 'http://[::1', 'http://host:99999'
            raise BadInputError(
                f"the robot URL {url!r} is not usable ({exc}); e.g. http://127.0.0.1:8765"
            ) from None
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise BadInputError(
                f"the robot URL {url!r} is not an http(s) address; e.g. http://127.0.0.1:8765"
            )
        self.url = url.rstrip("/")
        self.timeout = timeout

    def describe(self) -> dict[str, Any]:
        return {"robot": self.name, "url": self.url}

    async def _perform(self, call: SkillCall) -> SkillResult:
        data = await asyncio.to_thread(self._post, call)
        return SkillResult.from_dict(data, call)

    def _post(self, call: SkillCall) -> Any:
        url = f"{self.url}/{call.skill.value}"
        body = json.dumps(call.args).encode("utf-8")
        request = urllib.request.Request(
            url, body, {"Content-Type": "application/json", "Accept": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = read_body(
                    response, f"the robot server at {self.url}", MAX_REPLY_BYTES, self.timeout
                )
        except urllib.error.HTTPError as exc:
            with exc:  # closed here: its body may not end
                detail = exc.read(200).decode("utf-8", "replace").strip()
            raise RobotUnavailableError(
                f"the robot server at {self.url} answered {call} with HTTP {exc.code}"
                + (f": {detail}" if detail else "")
            ) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError, HTTPException) as exc:
            why = getattr(exc, "reason", exc)
            raise RobotUnavailableError(
                f"cannot reach the robot server at {self.url} for {call} ({why}); "
                "is it running, and is the address right?"
            ) from None
        except BadInputError as exc:  # a body too long, or too slow
            raise RobotReplyError(f"robot reply to {call}: {exc}") from None
        try:
            return parse_json(raw, f"robot reply to {call}")
        except BadInputError as exc:  # nested too deeply, a number of too many digits
            raise RobotReplyError(str(exc)) from None
        except (ValueError, UnicodeDecodeError):
            text = raw[:80].decode("utf-8", "replace")
            raise RobotReplyError(
                f"robot reply to {call}: not JSON ({text!r}); the server must answer "
                "with a JSON object (docs/execute.md)"
            ) from None
