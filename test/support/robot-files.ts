// Robot description files for tests, allowed as the command line allows them (the URDF's folder, its package, named folders).
export { terminalRobotFiles as robotFiles } from '../../hosts/service/host-policy';
