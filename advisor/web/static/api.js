// The page's only way to the server: JSON in, JSON out (see docs/reference/web-api.md).

export class ApiError extends Error {
  constructor(message, status, token) {
    super(message);
    this.status = status;
    this.token = token ?? null;
  }
}

// Seeds reach 2**63-1, beyond the integers a JavaScript number holds exactly
// (2**53): every "seed" of an answer is read as a string of its digits, kept
// and sent back so (the server takes either form).
export function parseJSON(text) {
  return JSON.parse(text.replace(/("seed"\s*:\s*)(\d+)/g, '$1"$2"'));
}

async function readJSON(response) {
  return parseJSON(await response.text());
}

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    /* not JSON */
  }
  return new ApiError(body?.error ?? `the server answered ${response.status}`, response.status, body?.token);
}

export async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await failure(response);
  return readJSON(response);
}

export async function postJSON(path, body, signal) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  return readJSON(response);
}

// A progressive analysis: onLine(object) is called for every line of the
// NDJSON stream as it arrives.  Aborting `signal` closes the connection; the
// server then cancels the stages not yet started.
export async function streamJSON(path, body, onLine, signal) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, cut).trim();
      buffer = buffer.slice(cut + 1);
      if (line) onLine(parseJSON(line));
    }
  }
  if (buffer.trim()) onLine(parseJSON(buffer));
}
