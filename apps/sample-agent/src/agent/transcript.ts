import {
  renderFailureText,
  type AgentRunResult,
  type ConversationMessage,
  type ToolEvent,
  type ToolResultMessage,
} from '@toolshield/core';

const MAX_SHOWN = 200;

function shorten(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function argumentsText(args: unknown): string {
  return shorten(typeof args === 'string' ? args : JSON.stringify(args ?? {}));
}

/** The retries the executor reported for a call: the failed attempt, its error and the wait. */
function retryLines(callId: string, tool: string, events: readonly ToolEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.type !== 'retry.scheduled' || event.callId !== callId) return [];
    const failed = events.find(
      (other) =>
        other.type === 'attempt.failed' &&
        other.callId === callId &&
        other.attempt === event.attempt - 1,
    );
    const why =
      failed?.type === 'attempt.failed'
        ? `${failed.errorType}: ${failed.message}`
        : event.errorType;
    return [
      `  ↻ ${tool}: attempt ${event.attempt - 1} failed (${why}), retrying in ${Math.round(event.delayMs)} ms`,
    ];
  });
}

/** A tool result as the executor reported it: the output, or the failure as `renderFailureText`. */
function resultLines(message: ToolResultMessage, events: readonly ToolEvent[]): string[] {
  const terminal = events.find(
    (event) =>
      (event.type === 'call.succeeded' || event.type === 'call.failed') &&
      event.callId === message.toolCallId,
  );
  const lines = retryLines(message.toolCallId, message.name, events);
  if (terminal?.type === 'call.failed') {
    lines.push(`  ✗ ${message.name}:`, indent(renderFailureText(terminal.failure), '      '));
  } else if (terminal?.type === 'call.succeeded') {
    lines.push(`  ✓ ${message.name}: ${shorten(JSON.stringify(terminal.result.output))}`);
  } else {
    // Answered by the agent loop itself (not run, or interrupted): show what the model read.
    lines.push(`  ✗ ${message.name} (not run): ${shorten(message.content)}`);
  }
  return lines;
}

function messageLines(
  message: ConversationMessage,
  previous: ConversationMessage | undefined,
  events: readonly ToolEvent[],
): string[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return previous?.role === 'tool'
        ? ['', 'decision prompt (added by the agent runner):', indent(message.content, '  ')]
        : ['', `user: ${message.content}`];
    case 'assistant':
      return [
        '',
        `assistant: ${message.content}`.trimEnd(),
        ...(message.toolCalls ?? []).map(
          (call) => `  → ${call.name} ${argumentsText(call.arguments)}`,
        ),
      ];
    case 'tool':
      return resultLines(message, events);
  }
}

/**
 * A run as readable text: the user's task, each model turn with its tool calls, every result
 * or failure (as the model would read it in text form) with the retries behind it, the
 * decision prompts, and the final answer.
 */
export function formatTranscript(result: AgentRunResult, events: readonly ToolEvent[]): string {
  const lines = result.messages.flatMap((message, index) =>
    messageLines(message, result.messages[index - 1], events),
  );
  lines.push(
    '',
    `final answer (${result.status} after ${result.steps} model steps; ${result.reason.message})`,
    indent(result.finalAnswer || '(none)', '  '),
  );
  return lines.join('\n');
}
