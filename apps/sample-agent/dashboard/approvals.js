// The calls waiting for a person: each with its tool, its run, its (redacted) arguments, when
// it expires, and Approve / Deny buttons (a reason is optional; a denial's reason is what the
// model reads).

import { element } from './dom.js';

const clock = (iso) => new Date(iso).toLocaleString([], { hour12: false });

/**
 * Draws `approvals` (as `GET /api/approvals` lists them) into `list`. `decide(id, decision,
 * reason)` posts a decision and resolves once it is stored (it rejects with the API's
 * message); `follow(runId)` shows the run.
 */
export function drawApprovals(list, approvals, { decide, follow }) {
  list.closest('section').hidden = approvals.length === 0;
  list.replaceChildren(
    ...approvals.map((approval) => {
      const reason = element('input', {
        type: 'text',
        class: 'reason',
        placeholder: 'reason (optional; the model reads a denial’s)',
        'aria-label': `Reason for approval ${approval.id}`,
      });
      const error = element('p', { class: 'error', role: 'alert' });
      const answer = (decision) => async () => {
        error.textContent = '';
        for (const button of item.querySelectorAll('button')) button.disabled = true;
        try {
          await decide(approval.id, decision, reason.value.trim() || undefined);
        } catch (failure) {
          error.textContent = failure.message;
          for (const button of item.querySelectorAll('button')) button.disabled = false;
        }
      };
      const item = element(
        'li',
        { 'data-approval': approval.id, 'data-run': approval.runId ?? '' },
        element(
          'span',
          { class: 'approval-head' },
          element('code', {}, approval.tool),
          approval.runId
            ? element(
                'a',
                { href: `#run=${approval.runId}`, onclick: () => follow(approval.runId) },
                `run ${approval.runId.slice(0, 8)}`,
              )
            : undefined,
          element('span', { class: 'when' }, `expires ${clock(approval.expiresAt)}`),
        ),
        element('pre', { class: 'args' }, JSON.stringify(approval.args, null, 2)),
        reason,
        element(
          'span',
          { class: 'approval-buttons' },
          element(
            'button',
            { type: 'button', class: 'approve', onclick: answer('approve') },
            'Approve',
          ),
          element('button', { type: 'button', class: 'deny', onclick: answer('deny') }, 'Deny'),
        ),
        error,
      );
      return item;
    }),
  );
}
