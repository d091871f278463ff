// The one way the console talks to the service: the documented API, with the session cookie.
// The API lives at the origin the console is served from (a deployed stage prefix included).
import { language } from "./i18n.js";

export const API_BASE = new URL("../", import.meta.url);

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || "HTTP_" + status;
    this.details = (body && body.details) || [];
  }
}

function url(path, query) {
  const target = new URL(path.replace(/^\//, ""), API_BASE);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") target.searchParams.set(name, value);
  }
  return target;
}

// Every failed call with status 401 (other than logging in) means the session is gone.
const sessionListeners = new Set();
export function onSessionLost(listener) { sessionListeners.add(listener); }

// `raw`: the answer as it came (a Blob), JSON included (a file to save as it is).
export async function request(method, path, { body, query, accept, headers, raw } = {}) {
  // the service answers its errors in the console's language
  const sent = { Accept: accept || "application/json", "Accept-Language": language(), ...(headers || {}) };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(url(path, query), {
    method, headers: sent, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if ((raw || (accept && accept !== "application/json")) && response.ok) return response.blob();
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
  if (!response.ok) {
    const error = new ApiError(response.status, parsed);
    if (response.status === 401 && !path.startsWith("/auth/login") && !path.startsWith("/auth/accept")) {
      sessionListeners.forEach((listener) => listener(error));
    }
    throw error;
  }
  return parsed;
}

export const api = {
  get: (path, query) => request("GET", path, { query }),
  post: (path, body = {}, options = {}) => request("POST", path, { body, ...options }),
  put: (path, body, options = {}) => request("PUT", path, { body, ...options }),
  patch: (path, body, options = {}) => request("PATCH", path, { body, ...options }),
  del: (path) => request("DELETE", path),
  // A PDF (or other binary) answer: the route wants its media type first in Accept.
  blob: (method, path, body, accept) => request(method, path, { body, accept }),
};

// Every item of a list, page by page (small collections: settings, accounts).
export async function listAll(path, field, query = {}) {
  const items = [];
  for (let page = 1; page <= 50; page += 1) {
    const answer = await api.get(path, { ...query, page, limit: 100 });
    items.push(...answer[field]);
    if (items.length >= (answer.total ?? items.length) || answer[field].length < 100) break;
  }
  return items;
}
