// Test-only workflows that stand in for the funnel (the investigation workflow's REGISTER and
// VERIFY_CONTACT) around the real pieces: askHuman and the two signals. Bundled by
// ./funnel-probe-worker.ts, never by the platform.
import { condition, setHandler } from '@temporalio/workflow';
import type { GuidanceAnswer, PersonaMailSignal } from '../../domain/investigations/funnel';
import { askHuman } from '../../workflows/investigations/funnel-guidance';
import { personaMailSignal } from '../../workflows/investigations/funnel-signals';

export async function guidanceProbeWorkflow(input: { scanId: string; screenshotKey: string | null; timeoutMs?: number }): Promise<{ reply: GuidanceAnswer | null; states: string[] }> {
  const states: string[] = [];
  const reply = await askHuman(
    input.scanId,
    { kind: 'captcha', question: 'Type the characters shown in the picture', field: '#captcha', screenshotKey: input.screenshotKey },
    { ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}), enter: async (state) => void states.push(state) },
  );
  states.push('VERIFY_CONTACT');
  return { reply, states };
}

export async function mailProbeWorkflow(): Promise<PersonaMailSignal> {
  let mail: PersonaMailSignal | null = null;
  setHandler(personaMailSignal, (m) => {
    mail ??= m;
  });
  await condition(() => mail !== null);
  return mail!;
}
