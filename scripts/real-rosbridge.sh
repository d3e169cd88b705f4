#!/usr/bin/env bash
# Runs the rosbridge conformance suite (robot/conformance/) and replays the
# safety fuzzer's cases (test/fuzz/rosbridge-safety.ts) against a real
# rosbridge_suite 0.11.17 (ROS 1) built from its source folder with Debian's ROS 1
# packages: ros-core python3-rospy python3-genpy python3-tornado python3-bson
# python3-autobahn python3-twisted python3-pil, and for the messages the tests use
# (their definitions and their Python modules, which rosbridge and rosapi load):
# ros-std-msgs ros-geometry-msgs ros-sensor-msgs ros-actionlib-msgs ros-move-base-msgs
# ros-visualization-msgs ros-std-srvs python3-geometry-msgs python3-sensor-msgs
# python3-actionlib-msgs python3-move-base-msgs python3-visualization-msgs python3-std-srvs.
#
#   scripts/real-rosbridge.sh SRC     SRC = a checkout of RobotWebTools/rosbridge_suite, tag 0.11.17
#
# The cases: ROSBRIDGE_SAFETY_CASES=FILE replays that file; otherwise
# ROSBRIDGE_SAFETY_COUNT cases (default 40, seed ROSBRIDGE_SAFETY_SEED) are
# written first with `npx tsx test/fuzz/rosbridge-safety.ts export FILE COUNT SEED`.
#
# rosbridge_suite is not packaged by Debian: its messages (rosbridge_msgs, rosapi) are
# generated here with genpy, rosauth is stubbed (no authentication is used), and the
# server, which ignores its address setting, is bound to 127.0.0.1. Everything runs
# on loopback and is stopped at the end. Without ROS it says so and exits 0.
set -euo pipefail
SRC=${1:-}
PORT=${ROSBRIDGE_PORT:-19090}
PY=${PYTHON:-/usr/bin/python3}  # Debian's Python, which has the ROS modules
ROOT=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "real-rosbridge: skipped: $*"; exit 0; }
command -v roscore >/dev/null || skip "roscore not found (apt-get install ros-core python3-rospy python3-genpy)"
GENPY=/usr/lib/genpy
[ -x "$GENPY/genmsg_py.py" ] || [ -f "$GENPY/genmsg_py.py" ] || skip "genpy's generators not found in $GENPY (apt-get install python3-genpy)"
[ -n "$SRC" ] && [ -d "$SRC/rosbridge_server" ] || { echo "usage: scripts/real-rosbridge.sh ROSBRIDGE_SUITE_0.11.17_FOLDER" >&2; exit 2; }
for m in tornado bson autobahn twisted PIL; do "$PY" -c "import $m" 2>/dev/null || skip "python module $m missing (apt-get install python3-$(echo "$m" | tr A-Z a-z))"; done

WORK=$(mktemp -d /tmp/sb-rosbridge-XXXX)
PIDS=()
# ROS nodes stop on SIGINT; anything still there after 3 s is killed.
cleanup() {
  for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  sleep 3
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

# Messages: rosbridge_msgs and rosapi's msg/srv, generated with genpy into $WORK/gen.
INC="-Istd_msgs:/usr/share/std_msgs/msg -Igeometry_msgs:/usr/share/geometry_msgs/msg"
gen() { # package dir kind
  local pkg=$1 dir=$2 kind=$3 out=$WORK/gen/$1/$3
  mkdir -p "$out"
  local files=("$dir"/*."$kind")
  [ -e "${files[0]}" ] || return 0
  "$PY" "$GENPY/gen${kind}_py.py" -p "$pkg" -o "$out" $INC -I"$pkg:$(dirname "$dir")/msg" "${files[@]}" >/dev/null
  "$PY" "$GENPY/gen${kind}_py.py" --initpy -p "$pkg" -o "$out" >/dev/null
  touch "$WORK/gen/$pkg/__init__.py"
}
gen rosbridge_msgs "$SRC/rosbridge_msgs/msg" msg
mkdir -p "$WORK/gen/rosapi"
gen rosapi "$SRC/rosapi/msg" msg
gen rosapi "$SRC/rosapi/srv" srv
# rosapi's own Python and its generated messages share one package folder.
cp -r "$SRC/rosapi/src/rosapi/." "$WORK/gen/rosapi/"
mkdir -p "$WORK/gen/rosauth"
echo "" > "$WORK/gen/rosauth/__init__.py"
echo "class Authentication:  # a stub: this run uses no authentication" > "$WORK/gen/rosauth/srv.py"
echo "    pass" >> "$WORK/gen/rosauth/srv.py"

cat > "$WORK/local.py" <<'PY'
# rosbridge_websocket listens on every interface whatever its address setting: bind it to 127.0.0.1.
import runpy, sys
import autobahn.twisted.websocket as ws
_listen = ws.listenWS
ws.listenWS = lambda factory, contextFactory=None, backlog=50, interface='': _listen(factory, contextFactory, backlog, '127.0.0.1')
sys.argv[0] = sys.argv[1]
del sys.argv[1]
runpy.run_path(sys.argv[0], run_name='__main__')
PY

export ROS_MASTER_URI=http://127.0.0.1:${ROS_MASTER_PORT:-11399} ROS_IP=127.0.0.1 ROS_HOSTNAME=127.0.0.1
export PYTHONPATH=$WORK/gen:$SRC/rosbridge_library/src:$SRC/rosbridge_server/src${PYTHONPATH:+:$PYTHONPATH}
# Debian ships some message packages without a manifest rospack can find: give each one.
for d in /usr/share/*_msgs; do
  n=$(basename "$d")
  mkdir -p "$WORK/pkgs/$n"
  echo "<package format=\"2\"><name>$n</name><version>0.0.0</version><description>$n</description><maintainer email=\"maintainer@example.com\">none</maintainer><license>BSD</license></package>" >"$WORK/pkgs/$n/package.xml"
done
export ROS_PACKAGE_PATH=$WORK/pkgs:$SRC
roscore -p "${ROS_MASTER_PORT:-11399}" >"$WORK/master.log" 2>&1 &
PIDS+=($!)
sleep 4
"$PY" "$SRC/rosapi/scripts/rosapi_node" >"$WORK/rosapi.log" 2>&1 &
PIDS+=($!)
"$PY" "$WORK/local.py" "$SRC/rosbridge_server/scripts/rosbridge_websocket" _port:="$PORT" _address:=127.0.0.1 >"$WORK/rosbridge.log" 2>&1 &
PIDS+=($!)
sleep 5
echo "real-rosbridge: rosbridge_server on ws://127.0.0.1:$PORT (logs in $WORK)"
cd "$ROOT"
CASES=${ROSBRIDGE_SAFETY_CASES:-$WORK/safety-cases.json}
[ -f "$CASES" ] || npx tsx test/fuzz/rosbridge-safety.ts export "$CASES" "${ROSBRIDGE_SAFETY_COUNT:-40}" "${ROSBRIDGE_SAFETY_SEED:-20260521}"
export SKILLBRIDGE_REAL_ROSBRIDGE=ws://127.0.0.1:$PORT SKILLBRIDGE_REAL_ROS=1
status=0
# The robot's own description as its twin: the ur5e_like fixture published as
# robot_description on the parameter server, read through rosapi by call --urdf rosbridge.
UR5E=test/fixtures/robots/ur5e_like
rosparam set -t "$UR5E/urdf/ur5e_like.urdf" robot_description
if out=$(node bin/skillbridge.js call --urdf rosbridge --robot "ws://127.0.0.1:$PORT" \
  --robot-config "$UR5E/urdf/ur5e_like.skillbridge.json" --package-dir "$UR5E" --scene tabletop/fruits \
  pick '{"object_name":"lemon"}' 2>&1) && grep -q "^robot: ur5e_like" <<<"$out"; then
  echo "real-rosbridge: call --urdf rosbridge read ur5e_like from robot_description:"
  grep -E "^robot:|^pick|^  [✓✗]" <<<"$out"
else
  echo "real-rosbridge: call --urdf rosbridge failed:"
  echo "$out"
  status=1
fi
npx vitest run robot/conformance/rosbridge.test.ts -t "a real rosbridge_server" || status=1
ROSBRIDGE_SAFETY_CASES=$CASES npx vitest run test/fuzz/rosbridge-safety-replay.test.ts || status=1
exit $status
