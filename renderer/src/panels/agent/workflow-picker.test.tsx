// @vitest-environment happy-dom
// The workflow picker names each workflow in plain words, the paper's name second,
// and says where the chosen one comes from and which stages it runs.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { AgentPanel } from '../agent-panel';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const WORKFLOWS = [
  {
    id: 'rtw/basic',
    title: 'One list of tools, several calls a turn',
    paper: '000',
    section: '§II.C.1',
    source: 'TORO (Robotic Tool Workflows)',
    stages: ['agent'],
    description: 'flat tools',
    systemPrompt: 'You control a robot arm.',
  },
  {
    id: 'dfki',
    title: 'Plan, act and check the result',
    paper: '003',
    section: '§3–§6',
    source: 'DFKI planner–executor with router and critic',
    stages: ['router', 'chatbot', 'planner', 'critic'],
    description: 'router, planner, critic',
    systemPrompt: 'You are the planner and executor.',
  },
];

describe('workflow picker', () => {
  it('shows plain-language titles with the paper name second, and the chosen one’s paper, section and stages', async () => {
    render(<AgentPanel api={fakeApi({ listWorkflows: () => WORKFLOWS })} desktop={false} />);
    await screen.findByText('One list of tools, several calls a turn — TORO (Robotic Tool Workflows)');
    const picker = screen.getByLabelText('Workflow') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual([
      'One list of tools, several calls a turn — TORO (Robotic Tool Workflows)',
      'Plan, act and check the result — DFKI planner–executor with router and critic',
    ]);
    fireEvent.change(picker, { target: { value: 'dfki' } });
    expect(screen.getByTestId('workflow-about').textContent).toBe('dfki · paper 003 §3–§6 · stages: router → chatbot → planner → critic');
    expect(((await screen.findByTestId('system-prompt')) as HTMLTextAreaElement).value).toBe('You are the planner and executor.');
  });
});
