// Message definitions as rosapi gives them, and the paths a mapping may name.
// The ROS 1 fixtures are what rosapi 0.11.17 answered for sensor_msgs/BatteryState
// on Debian 12's ROS 1 (objectutils.get_typedef_recursive and the definition text).
import { describe, expect, it } from 'vitest';
import { arrayItem, checkPath, fromFullText, fromTypedefs } from './message-types';
import { readBattery, readDetections, readEstop, readPose } from './readings';
import { stampOf } from './topic-reader';

const ROS1_TYPEDEFS = JSON.parse(
  '[{"type": "sensor_msgs/BatteryState", "fieldnames": ["header", "voltage", "temperature", "current", "charge", "capacity", "design_capacity", "percentage", "power_supply_status", "power_supply_health", "power_supply_technology", "present", "cell_voltage", "cell_temperature", "location", "serial_number"], "fieldtypes": ["std_msgs/Header", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "uint8", "uint8", "uint8", "bool", "float32", "float32", "string", "string"], "fieldarraylen": [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, -1, -1]}, {"type": "std_msgs/Header", "fieldnames": ["seq", "stamp", "frame_id"], "fieldtypes": ["uint32", "time", "string"], "fieldarraylen": [-1, -1, -1]}, {"type": "time", "fieldnames": ["secs", "nsecs"], "fieldtypes": ["int32", "int32"], "fieldarraylen": [-1, -1]}]',
) as unknown[];

const ROS1_TEXT =
  "\n# Constants are chosen to match the enums in the linux kernel\n# defined in include/linux/power_supply.h as of version 3.7\n# The one difference is for style reasons the constants are\n# all uppercase not mixed case.\n\n# Power supply status constants\nuint8 POWER_SUPPLY_STATUS_UNKNOWN = 0\nuint8 POWER_SUPPLY_STATUS_CHARGING = 1\nuint8 POWER_SUPPLY_STATUS_DISCHARGING = 2\nuint8 POWER_SUPPLY_STATUS_NOT_CHARGING = 3\nuint8 POWER_SUPPLY_STATUS_FULL = 4\n\n# Power supply health constants\nuint8 POWER_SUPPLY_HEALTH_UNKNOWN = 0\nuint8 POWER_SUPPLY_HEALTH_GOOD = 1\nuint8 POWER_SUPPLY_HEALTH_OVERHEAT = 2\nuint8 POWER_SUPPLY_HEALTH_DEAD = 3\nuint8 POWER_SUPPLY_HEALTH_OVERVOLTAGE = 4\nuint8 POWER_SUPPLY_HEALTH_UNSPEC_FAILURE = 5\nuint8 POWER_SUPPLY_HEALTH_COLD = 6\nuint8 POWER_SUPPLY_HEALTH_WATCHDOG_TIMER_EXPIRE = 7\nuint8 POWER_SUPPLY_HEALTH_SAFETY_TIMER_EXPIRE = 8\n\n# Power supply technology (chemistry) constants\nuint8 POWER_SUPPLY_TECHNOLOGY_UNKNOWN = 0\nuint8 POWER_SUPPLY_TECHNOLOGY_NIMH = 1\nuint8 POWER_SUPPLY_TECHNOLOGY_LION = 2\nuint8 POWER_SUPPLY_TECHNOLOGY_LIPO = 3\nuint8 POWER_SUPPLY_TECHNOLOGY_LIFE = 4\nuint8 POWER_SUPPLY_TECHNOLOGY_NICD = 5\nuint8 POWER_SUPPLY_TECHNOLOGY_LIMN = 6\n\nHeader  header\nfloat32 voltage          # Voltage in Volts (Mandatory)\nfloat32 temperature      # Temperature in Degrees Celsius (If unmeasured NaN)\nfloat32 current          # Negative when discharging (A)  (If unmeasured NaN)\nfloat32 charge           # Current charge in Ah  (If unmeasured NaN)\nfloat32 capacity         # Capacity in Ah (last full capacity)  (If unmeasured NaN)\nfloat32 design_capacity  # Capacity in Ah (design capacity)  (If unmeasured NaN)\nfloat32 percentage       # Charge percentage on 0 to 1 range  (If unmeasured NaN)\nuint8   power_supply_status     # The charging status as reported. Values defined above\nuint8   power_supply_health     # The battery health metric. Values defined above\nuint8   power_supply_technology # The battery chemistry. Values defined above\nbool    present          # True if the battery is present\n\nfloat32[] cell_voltage   # An array of individual cell voltages for each cell in the pack\n                         # If individual voltages unknown but number of cells known set each to NaN\nfloat32[] cell_temperature  # An array of individual cell temperatures for each cell in the pack\n                            # If individual temperatures unknown but number of cells known set each to NaN\nstring location          # The location into which the battery is inserted. (slot number or plug)\nstring serial_number     # The best approximation of the battery serial number\n\n================================================================================\nMSG: std_msgs/Header\n# Standard metadata for higher-level stamped data types.\n# This is generally used to communicate timestamped data \n# in a particular coordinate frame.\n# \n# sequence ID: consecutively increasing ID \nuint32 seq\n#Two-integer timestamp that is expressed as:\n# * stamp.sec: seconds (stamp_secs) since epoch (in Python the variable is called 'secs')\n# * stamp.nsec: nanoseconds since stamp_secs (in Python the variable is called 'nsecs')\n# time-handling sugar is provided by the client library\ntime stamp\n#Frame this data is associated with\nstring frame_id";

describe('message definitions from rosapi', () => {
  it('message_details (ROS 1) and the definition text give the same fields', () => {
    const a = fromTypedefs({ typedefs: ROS1_TYPEDEFS }, 'sensor_msgs/BatteryState')!;
    const b = fromFullText(ROS1_TEXT, 'sensor_msgs/BatteryState')!;
    expect(a.get('sensor_msgs/BatteryState')).toEqual(b.get('sensor_msgs/BatteryState'));
    expect(b.get('std_msgs/Header')).toEqual([
      { name: 'seq', type: 'uint32', array: false },
      { name: 'stamp', type: 'time', array: false },
      { name: 'frame_id', type: 'string', array: false },
    ]);
    for (const defs of [a, b]) {
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'percentage', 'number')).toBeUndefined();
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'present', 'bool')).toBeUndefined();
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'header.stamp.secs', 'number')).toBeUndefined();
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'pressed', 'bool')).toBe(
        'sensor_msgs/BatteryState has no field `pressed`; its fields: header, voltage, temperature, current, charge, capacity, design_capacity, percentage, power_supply_status, power_supply_health, power_supply_technology, present, cell_voltage, cell_temperature, location, serial_number',
      );
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'cell_voltage', 'number')).toBe(
        '`cell_voltage` is an array of float32, not a number',
      );
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'cell_voltage.0', 'number')).toBeUndefined();
      expect(checkPath(defs, 'sensor_msgs/BatteryState', 'location.x', 'number')).toBe('`location` is a string: it has no field `x`');
    }
  });

  it('ROS 2 names fields by their Python slots ("_data") and types by IDL ("boolean", sequence<…>)', () => {
    const defs = fromTypedefs(
      {
        typedefs: [
          {
            type: 'vision_msgs/Detection3DArray',
            fieldnames: ['_header', '_detections'],
            fieldtypes: ['std_msgs/Header', 'vision_msgs/Detection3D'],
            fieldarraylen: [-1, 0],
          },
          {
            type: 'vision_msgs/Detection3D',
            fieldnames: ['_header', '_results', '_bbox', '_id'],
            fieldtypes: ['std_msgs/Header', 'vision_msgs/ObjectHypothesisWithPose', 'vision_msgs/BoundingBox3D', 'string'],
            fieldarraylen: [-1, 0, -1, -1],
          },
          {
            type: 'vision_msgs/ObjectHypothesisWithPose',
            fieldnames: ['_hypothesis'],
            fieldtypes: ['vision_msgs/ObjectHypothesis'],
            fieldarraylen: [-1],
          },
          {
            type: 'vision_msgs/ObjectHypothesis',
            fieldnames: ['_class_id', '_score'],
            fieldtypes: ['string', 'double'],
            fieldarraylen: [-1, -1],
          },
          { type: 'vision_msgs/BoundingBox3D', fieldnames: ['_center'], fieldtypes: ['geometry_msgs/Pose'], fieldarraylen: [-1] },
          {
            type: 'geometry_msgs/Pose',
            fieldnames: ['_position', '_orientation'],
            fieldtypes: ['geometry_msgs/Point', 'geometry_msgs/Quaternion'],
            fieldarraylen: [-1, -1],
          },
          {
            type: 'geometry_msgs/Point',
            fieldnames: ['_x', '_y', '_z'],
            fieldtypes: ['double', 'double', 'double'],
            fieldarraylen: [-1, -1, -1],
          },
          {
            type: 'geometry_msgs/Quaternion',
            fieldnames: ['_x', '_y', '_z', '_w'],
            fieldtypes: ['double', 'double', 'double', 'double'],
            fieldarraylen: [-1, -1, -1, -1],
          },
        ],
      },
      'vision_msgs/msg/Detection3DArray',
    )!;
    const item = arrayItem(defs, 'vision_msgs/msg/Detection3DArray', 'detections');
    expect(item).toEqual({ item: 'vision_msgs/Detection3D' });
    expect(checkPath(defs, 'vision_msgs/Detection3D', 'results.0.hypothesis.class_id', 'string')).toBeUndefined();
    expect(checkPath(defs, 'vision_msgs/Detection3D', 'results.hypothesis', 'string')).toBe(
      '`results` is an array of vision_msgs/ObjectHypothesisWithPose: `hypothesis` must be an index such as 0',
    );
    expect(checkPath(defs, 'vision_msgs/Detection3D', 'bbox.center.position', 'point')).toBeUndefined();
    expect(checkPath(defs, 'vision_msgs/Detection3D', 'bbox.center', 'pose')).toBeUndefined();
    expect(checkPath(defs, 'vision_msgs/Detection3D', 'bbox', 'pose')).toBe(
      '`bbox` is a vision_msgs/BoundingBox3D, not a pose (position x, y, z and orientation x, y, z, w)',
    );
    expect(arrayItem(defs, 'vision_msgs/Detection3DArray', 'header')).toBe('`header` is a std_msgs/Header, not an array of messages');
  });

  it('an answer that is not a description, or does not describe the type, is none', () => {
    expect(fromTypedefs('Service call failed', 'std_msgs/Bool')).toBeUndefined();
    expect(fromTypedefs({ typedefs: [] }, 'std_msgs/Bool')).toBeUndefined();
    expect(fromFullText('', 'std_msgs/Bool')?.get('std_msgs/Bool')).toEqual([]);
    expect(fromFullText('not a definition at all!', 'std_msgs/Bool')).toBeUndefined();
  });
});

describe('one strict parse per reading', () => {
  it('the e-stop is a boolean at its path and nothing else', () => {
    expect(readEstop({ data: true }, 'data', 5)).toEqual({ known: true, value: true, at: 5 });
    for (const m of [{}, { pressed: false }, { data: 0 }, { data: 'false' }, { data: null }, null, [false]])
      expect(readEstop(m, 'data', 0).known).toBe(false);
  });

  it('null (NaN, ±Inf), out of range, or a missing status is an unknown battery', () => {
    expect(readBattery({ percentage: 0.5, power_supply_status: 1 }, 0)).toEqual({
      known: true,
      value: { percent: 50, charging: true },
      at: 0,
    });
    expect(readBattery({ percentage: null, power_supply_status: 2 }, 0)).toEqual({
      known: false,
      why: '`percentage` is null (NaN or ±Inf on the robot: rosbridge sends them as null)',
    });
    expect(readBattery({ percentage: 55, power_supply_status: 2 }, 0)).toEqual({
      known: false,
      why: '`percentage` is 55, outside 0…1 (sensor_msgs/BatteryState gives a fraction)',
    });
    expect(readBattery({ percentage: 0.5 }, 0).known).toBe(false);
  });

  it('a pose needs a finite position and a unit quaternion; a detection array is unknown if any item is', () => {
    const pose = (q: Record<string, unknown>) => ({ pose: { position: { x: 1, y: 2, z: 0 }, orientation: q } });
    expect(readPose(pose({ x: 0, y: 0, z: 0, w: 1 }), 'pose', 0)).toMatchObject({ known: true, value: { yawDeg: 0 } });
    expect(readPose(pose({ x: 0, y: 0, z: 0, w: 0 }), 'pose', 0).known).toBe(false);
    expect(readPose(pose({ x: 0, y: 0, z: null, w: 1 }), 'pose', 0).known).toBe(false);
    const paths = { items: 'detections', id: 'id', name: 'results.0.class_id', position: 'p' };
    expect(readDetections({ detections: [{ id: 'a', results: [{ class_id: 'cup' }], p: { x: 1, y: 2, z: 3 } }] }, paths, 0)).toMatchObject({
      known: true,
      value: [{ id: 'a', name: 'cup', category: 'object', position: { x: 1, y: 2, z: 3 } }],
    });
    expect(readDetections({ detections: [{ id: 'a', results: [], p: { x: 1, y: 2, z: 3 } }] }, paths, 0)).toEqual({
      known: false,
      why: 'detections[0]: `results.0` is absent (the array has 0 elements)',
    });
    expect(readDetections({ detections: {} }, paths, 0).known).toBe(false);
  });

  it('a stamp is {secs, nsecs} or {sec, nanosec} of whole numbers; zero is none; anything else is malformed', () => {
    expect(stampOf({ data: true })).toEqual({ kind: 'none' });
    expect(stampOf({ header: { stamp: { sec: 0, nanosec: 0 } } })).toEqual({ kind: 'none' });
    expect(stampOf({ header: { stamp: { secs: 10, nsecs: 5e8 } } })).toEqual({ kind: 'at', wallMs: 10_500 });
    expect(stampOf({ header: { stamp: { sec: 10, nanosec: 5e8 } } })).toEqual({ kind: 'at', wallMs: 10_500 });
    for (const stamp of [{ secs: 1.5, nsecs: 0 }, { sec: 1, nsecs: 0 }, { sec: -1, nanosec: 0 }, { sec: 1, nanosec: 1e9 }, null, 'now'])
      expect(stampOf({ header: { stamp } }).kind).toBe('bad');
    expect(stampOf({ header: {} }).kind).toBe('bad');
  });
});
