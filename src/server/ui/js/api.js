// The server's /api, as the window uses it. The session cookie set at launch authenticates
// every same-origin request; nothing here ever talks to another host.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `The server answered ${status}.`);
    this.status = status;
    this.body = body || {};
  }
}

async function request(method, path, body, { signal } = {}) {
  const init = { method, credentials: "same-origin", headers: {}, signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { message: "Cannot reach the Studyhall server. Is the app still running?" });
  }
  return response;
}

async function json(method, path, body, options) {
  const response = await request(method, path, body, options);
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401) {
      throw new ApiError(401, { message: "This page was not opened from Studyhall. Open it from the app window or the address it printed." });
    }
    throw new ApiError(response.status, data);
  }
  return data;
}

export const api = {
  get: (path, options) => json("GET", path, undefined, options),
  post: (path, body, options) => json("POST", path, body ?? {}, options),
  put: (path, body) => json("PUT", path, body),
  del: (path, body) => json("DELETE", path, body),

  /**
   * POST that answers with an SSE stream. Calls onEvent(name, data) for each event and
   * resolves when the stream ends. A refused request (409, 400...) throws ApiError.
   */
  async stream(path, body, onEvent, { signal } = {}) {
    const response = await request("POST", path, body ?? {}, { signal });
    const type = response.headers.get("content-type") || "";
    if (!type.startsWith("text/event-stream")) {
      const data = await response.json().catch(() => null);
      throw new ApiError(response.status, data);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let ended = false;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = parseBlock(block);
          if (event) {
            if (event.name === "finish" || event.name === "error") ended = true;
            onEvent(event.name, event.data);
          }
        }
      }
    } catch (error) {
      if (error.name === "AbortError") throw error;
      if (!ended) onEvent("error", { kind: "network", action: "reload", message: "The connection to the server was lost mid-answer. What was said so far is saved." });
      return;
    }
    if (!ended) {
      onEvent("error", { kind: "network", action: "reload", message: "The answer stopped before it finished. Reload the session to see what was saved." });
    }
  },
};

function parseBlock(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (!data.length) return null;
  try {
    return { name, data: JSON.parse(data.join("\n")) };
  } catch {
    return null;
  }
}
