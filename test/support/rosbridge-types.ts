// The message definitions the rosbridge stand-in's rosapi serves: the types a
// mapping may name, their fields and full texts, as rosapi answers them.

type Msg = Record<string, unknown>;

/** A type name without its ROS 2 kind folder: std_msgs/msg/Bool is std_msgs/Bool. */
export const bare = (t: string) => t.replace(/\/(msg|srv|action)\//, '/');

export const ROSAPI = [
  '/rosapi/topics',
  '/rosapi/services',
  '/rosapi/action_servers',
  '/rosapi/get_ros_version',
  '/rosapi/message_details',
  '/rosapi/topics_and_raw_types',
  '/rosapi/get_param',
  '/rosapi/set_param',
];

// Message definitions, as the .msg files of the packages say (the fields a
// mapping names; constants left out). Header and Time differ by version.
export const MSGS: Record<string, string> = {
  'std_msgs/Bool': 'bool data',
  'std_msgs/Int32': 'int32 data',
  'std_msgs/String': 'string data',
  'std_msgs/Empty': '',
  'std_msgs/ColorRGBA': 'float32 r\nfloat32 g\nfloat32 b\nfloat32 a',
  'geometry_msgs/Point': 'float64 x\nfloat64 y\nfloat64 z',
  'geometry_msgs/Vector3': 'float64 x\nfloat64 y\nfloat64 z',
  'geometry_msgs/Quaternion': 'float64 x\nfloat64 y\nfloat64 z\nfloat64 w',
  'geometry_msgs/Pose': 'geometry_msgs/Point position\ngeometry_msgs/Quaternion orientation',
  'geometry_msgs/PoseStamped': 'std_msgs/Header header\ngeometry_msgs/Pose pose',
  'geometry_msgs/PoseWithCovariance': 'geometry_msgs/Pose pose\nfloat64[36] covariance',
  'geometry_msgs/PoseWithCovarianceStamped': 'std_msgs/Header header\ngeometry_msgs/PoseWithCovariance pose',
  'sensor_msgs/BatteryState':
    'std_msgs/Header header\nfloat32 voltage\nfloat32 temperature\nfloat32 current\nfloat32 charge\nfloat32 capacity\nfloat32 design_capacity\nfloat32 percentage\nuint8 power_supply_status\nuint8 power_supply_health\nuint8 power_supply_technology\nbool present\nfloat32[] cell_voltage\nfloat32[] cell_temperature\nstring location\nstring serial_number',
  'vision_msgs/Detection3DArray': 'std_msgs/Header header\nvision_msgs/Detection3D[] detections',
  'vision_msgs/Detection3D':
    'std_msgs/Header header\nvision_msgs/ObjectHypothesisWithPose[] results\nvision_msgs/BoundingBox3D bbox\nstring id',
  'vision_msgs/ObjectHypothesisWithPose': 'vision_msgs/ObjectHypothesis hypothesis\ngeometry_msgs/PoseWithCovariance pose',
  'vision_msgs/ObjectHypothesis': 'string class_id\nfloat64 score',
  'vision_msgs/BoundingBox3D': 'geometry_msgs/Pose center\ngeometry_msgs/Vector3 size',
  'visualization_msgs/MarkerArray': 'visualization_msgs/Marker[] markers',
  'visualization_msgs/Marker':
    'std_msgs/Header header\nstring ns\nint32 id\nint32 type\nint32 action\ngeometry_msgs/Pose pose\ngeometry_msgs/Vector3 scale\nstd_msgs/ColorRGBA color\nduration lifetime\nbool frame_locked\ngeometry_msgs/Point[] points\nstd_msgs/ColorRGBA[] colors\nstring text\nstring mesh_resource\nbool mesh_use_embedded_materials',
};
export const MSGS1: Record<string, string> = { 'std_msgs/Header': 'uint32 seq\ntime stamp\nstring frame_id' };
export const MSGS2: Record<string, string> = {
  'std_msgs/Header': 'builtin_interfaces/Time stamp\nstring frame_id',
  'builtin_interfaces/Time': 'int32 sec\nuint32 nanosec',
  'builtin_interfaces/Duration': 'int32 sec\nuint32 nanosec',
};

export interface Field {
  type: string;
  name: string;
  arraylen: number;
}

export function fieldsOf(types: Map<string, string>, type: string, ros: 1 | 2): Field[] | undefined {
  const text = types.get(bare(type));
  if (text === undefined) return undefined;
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [t, name] = l.trim().split(/\s+/) as [string, string];
      const arr = /\[(\d*)\]$/.exec(t);
      let base = t.replace(/\[\d*\]$/, '');
      if (ros === 2 && base === 'duration') base = 'builtin_interfaces/Duration';
      return { type: base, name, arraylen: arr ? (arr[1] ? Number(arr[1]) : 0) : -1 };
    });
}

export const PRIMITIVE2: Record<string, string> = { bool: 'boolean', float64: 'double', float32: 'float', byte: 'octet' };
export const isPrimitive = (t: string) => !t.includes('/');

/** rosapi's get_typedef_recursive for `type`, or undefined for a type it cannot load. */
export function typedefs(types: Map<string, string>, type: string, ros: 1 | 2): Msg[] | undefined {
  const out: Msg[] = [];
  const seen = new Set<string>();
  const visit = (t: string): boolean => {
    if (seen.has(t)) return true;
    seen.add(t);
    if (t === 'time' || t === 'duration') {
      out.push({
        type: t,
        fieldnames: ['secs', 'nsecs'],
        fieldtypes: ['int32', 'int32'],
        fieldarraylen: [-1, -1],
        examples: ['0', '0'],
        constnames: [],
        constvalues: [],
      });
      return true;
    }
    if (isPrimitive(t)) return true;
    const fields = fieldsOf(types, t, ros);
    if (!fields) return false;
    out.push({
      type: bare(t),
      fieldnames: fields.map((f) => (ros === 2 ? `_${f.name}` : f.name)),
      fieldtypes: fields.map((f) => (ros === 2 ? (PRIMITIVE2[f.type] ?? f.type) : f.type)),
      fieldarraylen: fields.map((f) => f.arraylen),
      examples: fields.map((f) => (f.arraylen >= 0 ? '[]' : isPrimitive(f.type) ? '0' : '{}')),
      constnames: [],
      constvalues: [],
    });
    return fields.every((f) => visit(f.type));
  };
  return visit(bare(type)) ? out : undefined;
}

/** The definition text as gendeps --cat (ROS 1) or rosapi's stringify_field_types (ROS 2) writes it. */
export function fullText(types: Map<string, string>, type: string, ros: 1 | 2): string | undefined {
  const parts: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, root: boolean): boolean => {
    if (isPrimitive(t) || seen.has(t)) return true;
    seen.add(t);
    const text = types.get(t);
    if (text === undefined) return false;
    const own = ros === 1 ? text.replace(/^std_msgs\/Header /m, 'Header ') : text;
    parts.push(root ? own : `${'='.repeat(80)}\nMSG: ${t}\n${own}`);
    return (fieldsOf(types, t, ros) ?? []).every((f) => visit(f.type, false));
  };
  return visit(bare(type), true) ? parts.join('\n') : undefined;
}

/** Resolves after `ms`, or when the goal is cancelled (then with CANCELED). */
