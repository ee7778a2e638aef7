/**
 * Rate counting shared by cluster workers: each worker asks the primary, which holds the one
 * count per key, over the cluster's IPC channel. A worker that gets no answer in time lets the
 * request through rather than failing it (the limit protects the service; it must not take it down).
 */
import type { Worker } from 'node:cluster';
import type { RateDecision, RateLimiter, RatePolicy } from './limiter.ts';
import { LocalRateLimiter } from './limiter.ts';

const ASK = 'archive:rate-ask';
const ANSWER = 'archive:rate-answer';
const ANSWER_TIMEOUT_MS = 1000;

interface RateAsk {
  type: typeof ASK;
  id: number;
  key: string;
  policy: RatePolicy;
  cost: number;
}

interface RateAnswer {
  type: typeof ANSWER;
  id: number;
  decision: RateDecision;
}

function isAsk(message: unknown): message is RateAsk {
  return (message as RateAsk | undefined)?.type === ASK;
}

function isAnswer(message: unknown): message is RateAnswer {
  return (message as RateAnswer | undefined)?.type === ANSWER;
}

/** The worker side: asks the primary for every decision. */
export class WorkerRateLimiter implements RateLimiter {
  private nextId = 1;
  private readonly waiting = new Map<number, (decision: RateDecision) => void>();

  constructor(private readonly channel: Pick<NodeJS.Process, 'send' | 'on'> = process) {
    channel.on('message', (message: unknown) => {
      if (!isAnswer(message)) return;
      this.waiting.get(message.id)?.(message.decision);
      this.waiting.delete(message.id);
    });
  }

  take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ allowed: true, remaining: policy.limit, resetMs: policy.windowMs });
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, (decision) => {
        clearTimeout(timer);
        resolve(decision);
      });
      const ask: RateAsk = { type: ASK, id, key, policy, cost };
      this.channel.send?.(ask);
    });
  }
}

/** The primary side: answers a worker's rate questions from the one shared count. */
export function answerRateAsks(limiter: LocalRateLimiter = new LocalRateLimiter()): (worker: Worker, message: unknown) => void {
  return (worker, message) => {
    if (!isAsk(message)) return;
    void limiter.take(message.key, message.policy, message.cost ?? 1).then((decision) => {
      const answer: RateAnswer = { type: ANSWER, id: message.id, decision };
      if (worker.isConnected()) worker.send(answer);
    });
  };
}
