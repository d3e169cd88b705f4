#!/usr/bin/env python3
"""A robot behind the Skillbridge robot HTTP API (skillbridge-robot/1), in the
Python standard library only. Replace the FakeArm methods with calls into your
robot's stack (MoveIt, your driver, a REST service) and every Skillbridge tool,
workflow and evaluation runs on it:

    SKILLBRIDGE_ROBOT_TOKEN=secret python3 examples/robot-api/robot_server.py --port 8765
    SKILLBRIDGE_ROBOT_TOKEN=secret npx skillbridge call --robot http://127.0.0.1:8765 get_objects

The protocol (the README's "Robot HTTP API" section; /openapi.json of
`skillbridge robot-api` has every schema):
  GET  /v1/info                  {"protocol", "info", "relations"}
  POST /v1/query/<name>          body: the query's arguments -> {"value": ...}
  POST /v1/skills/<skill>?wait=S body: the skill's arguments -> {"job": {...}} (200 done, 202 running)
  GET  /v1/jobs/<id>?wait=S      {"job": {...}}
  POST /v1/jobs/<id>/cancel      {"job": {...}}
  GET  /v1/events?since=N        server-sent events: first "event: stream" {"epoch"}, then
                                 "event: robot" + a RobotEvent (ids restart with each epoch)
Every request carries "Authorization: Bearer <token>"; errors are
{"error": {"code", "message"}} with a 4xx/5xx status: 400 for arguments the
skill or query does not accept, 501 for a query or skill your robot does not
have (before any job starts). The robot.safety query reports the e-stop and its
age; Skillbridge moves the robot only while it is known, fresh and released.
This example's e-stop is POST /estop {"pressed": true|false} (your robot's
button, not part of the protocol).
"""
import argparse
import json
import os
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PROTOCOL = "skillbridge-robot/1"


class FakeArm:
    """Stands in for your robot. Positions are metres in a Y-up world frame."""

    def __init__(self):
        self.objects = {"lemon_1": [0.25, 0.78, 0.1], "bowl_1": [0.3, 0.78, -0.26]}
        self.held = None
        self.events = []
        self.t0 = time.monotonic()
        self.estop = False
        self.estop_at = self.t0

    def now(self):
        return round(time.monotonic() - self.t0, 3)

    def post(self, kind, text, data=None):
        self.events.append({"id": len(self.events) + 1, "time": self.now(), "type": kind, "text": text, "data": data or {}})

    def info(self):
        return {
            "id": "my_arm",
            "name": "My arm",
            "kind": "fixed_arm",
            "description": "A Python robot behind the Skillbridge robot API.",
            "capabilities": ["arm", "perception", "events"],
            "scene": {"id": "my/lab", "title": "My lab", "notes": [], "userInfo": [], "toolSet": "alrm"},
            "arm": {"reachM": 0.65, "payloadKg": 0.25, "gripperOpeningM": 0.08, "postures": ["home"]},
            "places": [],
            "referencePositions": [{"id": "center", "position": [0.3, 0.78, 0.0]}],
            "batteryThresholds": {"low": 20, "critical": 5},
            "workspace": {"min": [-1, 0, -1], "max": [1, 2, 1]},
        }

    def set_estop(self, pressed):
        self.estop, self.estop_at = pressed, time.monotonic()
        self.post("estop_pressed" if pressed else "estop_released", "emergency stop " + ("pressed" if pressed else "released"))

    # Queries: return plain JSON values.
    def query(self, name, a):
        if name == "robot.safety":
            # Read from the hardware each time here, so its age is ~0; report the age of your reading.
            return {"estop": {"state": "pressed" if self.estop else "released", "ageS": 0.0}, "maxAgeS": 2.0}
        if name == "perception.detect":
            return [
                {"id": i, "name": i.split("_")[0], "category": "object", "distanceM": round(sum(x * x for x in p) ** 0.5, 3), "position": p}
                for i, p in self.objects.items()
            ]
        if name == "perception.resolve":
            hits = [i for i in self.objects if i == a["name"] or i.split("_")[0] == a["name"]]
            if len(hits) == 1:
                return {"ok": True, "id": hits[0], "kind": "object"}
            return {"ok": False, "reason": "unknown" if not hits else "ambiguous", "message": f'no object called "{a["name"]}"', "candidates": hits}
        if name == "perception.holding":
            return self.held
        if name == "perception.pose":
            p = self.objects.get(a["id"])
            return {"position": p, "yawDeg": 0} if p else None
        if name == "perception.basePose":
            return {"position": [0, 0, 0], "yawDeg": 0}
        if name == "perception.referencePoint":
            return {"position": [0.3, 0.78, 0.0], "label": "center"} if a["name"] == "center" else None
        if name == "perception.snapshot":
            return [f"holding({self.held})"] if self.held else []
        if name == "perception.related":
            return []
        if name == "arm.graspPose":
            p = self.objects.get(a["object"])
            return {"ok": True, "pose": {"position": p, "tiltDeg": 0}} if p else {"ok": False, "summary": "no such object"}
        if name == "robot.time":
            return self.now()
        if name == "events.since":
            return [e for e in self.events if e["id"] > a["lastId"]]
        if name == "events.lastId":
            return len(self.events)
        raise NotImplementedError(name)

    # What this robot can do, and what each skill needs: checked before a job starts (400 / 501).
    SKILLS = {
        "arm.pick": lambda a: isinstance(a.get("object"), str),
        "arm.place": lambda a: isinstance(a.get("target"), dict)
        and (
            (a["target"].get("kind") == "object" and isinstance(a["target"].get("id"), str))
            or (a["target"].get("kind") == "point" and is_vec3(a["target"].get("position")))
        ),
        "arm.moveToPosture": lambda a: isinstance(a.get("posture"), str),
        "arm.moveTool": lambda a: isinstance(a.get("pose"), dict) and is_vec3(a["pose"].get("position")),
        "arm.perceive": lambda a: True,
        "robot.wait": lambda a: is_number(a.get("seconds")) and a["seconds"] >= 0,
    }

    # Skills: run in a job thread; check `cancelled` often; return an Outcome.
    def skill(self, name, a, cancelled):
        if self.estop and name != "robot.wait":
            return {"ok": False, "code": "estop", "summary": "the emergency stop is pressed"}
        if name == "arm.pick":
            if a["object"] not in self.objects:
                return {"ok": False, "code": "not_perceived", "summary": f"{a['object']} is not here"}
            if self.held:
                return {"ok": False, "code": "hand_full", "summary": f"already holding {self.held}"}
            for _ in range(10):  # the motion: 1 s, cancellable
                if cancelled.is_set():
                    return {"ok": False, "code": "aborted", "summary": "the pick was cancelled"}
                time.sleep(0.1)
            self.held = a["object"]
            return {"ok": True, "summary": f"picked {a['object']}"}
        if name == "arm.place":
            if not self.held:
                return {"ok": False, "code": "hand_empty", "summary": "nothing in the gripper"}
            t = a["target"]
            self.objects[self.held] = t["position"] if t["kind"] == "point" else self.objects.get(t["id"], [0.3, 0.78, 0])
            placed, self.held = self.held, None
            return {"ok": True, "summary": f"placed {placed}"}
        if name in ("arm.moveToPosture", "arm.moveTool", "arm.perceive"):
            return {"ok": True, "summary": f"{name} done"}
        if name == "robot.wait":
            cancelled.wait(min(a["seconds"], 3600))
            return {"ok": False, "code": "aborted", "summary": "the wait was stopped"} if cancelled.is_set() else {"ok": True, "summary": "waited"}
        raise NotImplementedError(name)


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x and abs(x) != float("inf")


def is_vec3(v):
    return isinstance(v, list) and len(v) == 3 and all(is_number(x) for x in v)


ROBOT = FakeArm()
EPOCH = uuid.uuid4().hex[:12]  # new at each start: clients that saw another epoch replay from the first event
JOBS = {}
LOCK = threading.Lock()


def run_job(job, args, cancelled, done):
    try:
        outcome = ROBOT.skill(job["skill"], args, cancelled)
    except Exception as e:  # a bug in the robot's code is a failed skill, not a dead server
        outcome = {"ok": False, "code": "skill_failure", "summary": str(e)}
    with LOCK:
        job["outcome"] = outcome
        job["status"] = "succeeded" if outcome["ok"] else ("cancelled" if cancelled.is_set() or outcome.get("code") == "aborted" else "failed")
        job["progress"]["elapsedS"] = round(ROBOT.now() - job["_started"], 3)
    done.set()


def public(job):
    return {k: v for k, v in job.items() if not k.startswith("_")}


class Handler(BaseHTTPRequestHandler):
    token = ""

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, message):
        self.reply(status, {"error": {"code": code, "message": message}})

    def authorised(self, url):
        given = self.headers.get("Authorization", "")
        ok = given == f"Bearer {self.token}" or (url.path == "/v1/events" and parse_qs(url.query).get("token", [""])[0] == self.token)
        if not ok:
            self.error(401, "unauthorized", "missing or wrong token")
        return ok

    def wait_param(self, url):
        try:
            return min(30.0, max(0.0, float(parse_qs(url.query).get("wait", ["0"])[0])))
        except ValueError:
            return 0.0

    def do_GET(self):
        url = urlparse(self.path)
        if not self.authorised(url):
            return
        if url.path == "/v1/info":
            return self.reply(200, {"protocol": PROTOCOL, "info": ROBOT.info(), "relations": ["on", "in"]})
        if url.path.startswith("/v1/jobs/"):
            job = JOBS.get(url.path.split("/")[3])
            if not job:
                return self.error(404, "not_found", "no such job")
            job["_done"].wait(self.wait_param(url))
            return self.reply(200, {"job": public(job)})
        if url.path == "/v1/events":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            q = parse_qs(url.query)
            try:
                seen = int(q.get("since", [self.headers.get("Last-Event-ID") or "0"])[0])
            except ValueError:
                seen = 0
            if q.get("epoch", [EPOCH])[0] != EPOCH:
                seen = 0
            try:
                self.wfile.write(f"event: stream\ndata: {json.dumps({'epoch': EPOCH})}\n\n".encode())
                while True:
                    for e in [e for e in ROBOT.events if e["id"] > seen]:
                        self.wfile.write(f"id: {e['id']}\nevent: robot\ndata: {json.dumps(e)}\n\n".encode())
                        seen = e["id"]
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                    time.sleep(0.5)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.error(404, "not_found", f"no GET {url.path}")

    def do_POST(self):
        url = urlparse(self.path)
        if not self.authorised(url):
            return
        length = int(self.headers.get("Content-Length", "0") or 0)
        try:
            args = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError as e:
            return self.error(400, "bad_request", f"the body is not JSON: {e}")
        parts = url.path.strip("/").split("/")
        if parts == ["estop"]:
            if not isinstance(args, dict) or not isinstance(args.get("pressed"), bool):
                return self.error(400, "bad_request", 'estop: send {"pressed": true} or {"pressed": false}')
            ROBOT.set_estop(args["pressed"])
            return self.reply(200, {"pressed": ROBOT.estop})
        if parts[:2] == ["v1", "query"] and len(parts) == 3:
            if not isinstance(args, dict):
                return self.error(400, "bad_request", f"{parts[2]}: the arguments must be a JSON object")
            try:
                return self.reply(200, {"value": ROBOT.query(parts[2], args)})
            except NotImplementedError:
                return self.error(501, "unsupported", f"this robot cannot answer {parts[2]}")
            except KeyError as e:
                return self.error(400, "bad_request", f"{parts[2]}: missing argument {e}")
        if parts[:2] == ["v1", "skills"] and len(parts) == 3:
            check = FakeArm.SKILLS.get(parts[2])
            if check is None:
                return self.error(501, "unsupported", f"this robot does not do {parts[2]}")
            if not isinstance(args, dict) or not check(args):
                return self.error(400, "bad_request", f"{parts[2]}: arguments outside the schema (see /openapi.json of skillbridge robot-api)")
            job = {"id": uuid.uuid4().hex[:12], "skill": parts[2], "args": args, "status": "running", "progress": {"elapsedS": 0}, "outcome": None}
            job["_started"], job["_cancel"], job["_done"] = ROBOT.now(), threading.Event(), threading.Event()
            JOBS[job["id"]] = job
            threading.Thread(target=run_job, args=(job, args, job["_cancel"], job["_done"]), daemon=True).start()
            job["_done"].wait(self.wait_param(url))
            return self.reply(200 if job["status"] != "running" else 202, {"job": public(job)})
        if parts[:2] == ["v1", "jobs"] and len(parts) == 4 and parts[3] == "cancel":
            job = JOBS.get(parts[2])
            if not job:
                return self.error(404, "not_found", "no such job")
            job["_cancel"].set()
            job["_done"].wait(5)
            return self.reply(200, {"job": public(job)})
        self.error(404, "not_found", f"no POST {url.path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=8765)
    opts = ap.parse_args()
    Handler.token = os.environ.get("SKILLBRIDGE_ROBOT_TOKEN") or secrets.token_urlsafe(24)
    server = ThreadingHTTPServer(("127.0.0.1", opts.port), Handler)
    print(json.dumps({"url": f"http://127.0.0.1:{server.server_address[1]}", "token": Handler.token}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
