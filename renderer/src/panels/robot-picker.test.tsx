// @vitest-environment happy-dom
// The robot picker sends only a folder's robot files, each by its path in the
// folder, the first chunk starting the upload; a refused robot's reason and its
// problems per element are shown, and the robot before is still named.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { RobotPicker } from './robot-picker';

afterEach(cleanup);

function picked(path: string, text: string): File {
  const f = new File([text], path.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

describe('RobotPicker', () => {
  it("uploads the folder's robot files by their paths, then shows a refusal's reason and problems per element", async () => {
    const api = fakeApi({
      putRobotFile: (r) => ({ path: r.path, bytes: 1 }),
      useRobot: () => ({
        ok: false,
        robot: 'arm',
        reason: 'joint "j": mimics joint "x", which does not exist',
        problems: [{ element: 'joint "j"', problem: 'mimics joint "x", which does not exist', fix: 'name a joint', severity: 'error' }],
        meta: null,
      }),
    });
    render(<RobotPicker api={api} robot="arm" />);
    const input = screen.getByLabelText('Robot folder');
    expect(input.getAttribute('webkitdirectory')).toBe('');
    const files = [
      picked('r/urdf/r.urdf', '<robot/>'),
      picked('r/meshes/a.stl', 'solid'),
      picked('r/.git/HEAD', 'x'),
      picked('r/README.md', '#'),
    ];
    fireEvent.change(input, { target: { files } });
    await waitFor(() => expect(screen.getByTestId('robot-refused').textContent).toContain('mimics joint "x"'));
    const puts = api.calls
      .filter((c) => c.method === 'putRobotFile')
      .map((c) => c.request as { path: string; start: boolean; data: string });
    expect(puts.map((p) => [p.path, p.start])).toEqual([
      ['r/urdf/r.urdf', true],
      ['r/meshes/a.stl', false],
    ]);
    expect(atob(puts[0]!.data)).toBe('<robot/>');
    expect(screen.getByRole('list', { name: 'Robot description problems' }).textContent).toContain('joint "j": mimics joint');
    expect(screen.getByTestId('robot-in-use').textContent).toBe('In the scene: arm');
  });
});
