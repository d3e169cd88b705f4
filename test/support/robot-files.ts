// Robot description files for tests, allowed as the command line allows them (the URDF's folder, its package, named folders).
export { terminalRobotFiles as robotFiles } from '../../hosts/service/host-policy';
// A description that is no file (the robot's own) reads meshes only from named package folders; the robot is a rosbridge URL.
export { terminalRobotPackages as robotPackages, terminalRosbridgeUrl as rosbridgeUrl } from '../../hosts/service/host-policy';
