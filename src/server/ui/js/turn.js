// One streamed turn applied to the local copy of the transcript: the SSE events (DESIGN.md
// names) become message / part updates, and the view redraws at most once per frame.

export class TurnStream {
  constructor(messages, { onChange, onQuestion, onResult, onError, onFinish }) {
    this.messages = messages;
    this.hooks = { onChange, onQuestion, onResult, onError, onFinish };
    this.streamingId = null;
  }

  find(id) {
    return this.messages.find((m) => m.id === id);
  }

  handle(name, data) {
    const h = this.hooks;
    switch (name) {
      case "message-start": {
        const known = this.find(data.message_id);
        // Try again continues a message a failure cut off: it restarts from its last complete
        // point, so the new text replaces the cut text instead of following it.
        if (known) known.parts = resumePoint(known.parts);
        if (!known) {
          this.messages.push({ id: data.message_id, role: data.role, agent: data.agent, parts: [],
            created_at: new Date().toISOString() });
        }
        this.streamingId = data.message_id;
        h.onChange(data.message_id, true, name);
        break;
      }
      case "text-delta": {
        const message = this.find(data.message_id);
        if (!message) break;
        const last = message.parts[message.parts.length - 1];
        if (last && last.type === "text") last.text += data.text;
        else message.parts.push({ type: "text", text: data.text });
        h.onChange(data.message_id, false, name);
        break;
      }
      case "tool-call":
      case "tool-result": {
        const message = this.find(data.message_id);
        const { message_id: _, ...part } = data;
        if (message) {
          const i = message.parts.findIndex((p) => p.type === "tool-call" && p.tool_call_id === data.tool_call_id);
          const merged = { type: "tool-call", ...(i >= 0 ? message.parts[i] : {}), ...part };
          if (i >= 0) message.parts[i] = merged;
          else message.parts.push(merged);
          h.onChange(data.message_id, name === "tool-call", name);
        }
        if (name === "tool-call" && data.state === "input-available") h.onQuestion({ ...part, message_id: data.message_id });
        if (name === "tool-result") h.onResult(data);
        break;
      }
      case "steer": {
        if (!this.find(data.message_id)) {
          const parts = [{ type: "steer", steer_id: data.steer_id, kind: data.kind }];
          if (data.text) parts.push({ type: "text", text: data.text });
          for (const [key, value] of Object.entries(data.data || {})) parts.push({ type: "data", name: key, data: value });
          this.messages.push({ id: data.message_id, role: "user", agent: null, parts, created_at: new Date().toISOString() });
          h.onChange(data.message_id, true, name);
        }
        break;
      }
      case "usage":
        break;  // folded server-side; the dock reads the total after the turn
      case "error":
        this.streamingId = null;
        h.onError(data);
        break;
      case "finish":
        this.streamingId = null;
        h.onFinish(data);
        break;
      default:
        break;
    }
  }
}

/** A cut-off message's parts at its last complete point: the text marked incomplete and every
 * mark dropped (the server's ``turn_state.resume_point``). */
export function resumePoint(parts) {
  const out = [];
  for (const part of parts) {
    if (part.type === "data" && part.name === "incomplete") {
      if (out.length && out[out.length - 1].type === "text") out.pop();
    } else if (!(part.type === "data" && part.name === "turn-failed")) {
      out.push(part);
    }
  }
  return out;
}
