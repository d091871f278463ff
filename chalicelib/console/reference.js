// The API reference at /docs: renders the served /openapi.json (public, like this page: no session
// needed). No library: operations by tag, their parameters, body fields and answers, the models'
// constraints as the document states them.
import { h, replace } from "./dom.js";

const root = document.getElementById("reference");
const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

function resolve(document, schema) {
  let current = schema || {};
  for (let depth = 0; current.$ref && depth < 10; depth += 1) {
    current = current.$ref.replace(/^#\//, "").split("/").reduce((node, part) => (node || {})[part], document) || {};
  }
  return current;
}

function refName(schema) {
  return schema && schema.$ref ? schema.$ref.split("/").pop() : null;
}

// "string, 1-200 chars, pattern …" from a property's schema.
function describe(document, schema) {
  const own = resolve(document, schema);
  const choices = own.anyOf || own.oneOf;
  if (choices) return choices.map((choice) => describe(document, choice)).join(" | ");
  if (own.enum) return `one of ${own.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  let text = own.type === "array" ? `array of ${describe(document, own.items)}` : (refName(schema) || own.type || "any");
  if (own.format) text += ` (${own.format})`;
  const limits = [];
  if (own.minLength !== undefined || own.maxLength !== undefined) limits.push(`length ${own.minLength ?? 0}-${own.maxLength ?? "∞"}`);
  if (own.minimum !== undefined) limits.push(`≥ ${own.minimum}`);
  if (own.exclusiveMinimum !== undefined) limits.push(`> ${own.exclusiveMinimum}`);
  if (own.maximum !== undefined) limits.push(`≤ ${own.maximum}`);
  if (own.pattern) limits.push(`pattern ${own.pattern}`);
  if (own.maxItems !== undefined) limits.push(`at most ${own.maxItems} items`);
  return limits.length ? `${text}, ${limits.join(", ")}` : text;
}

function fieldsTable(document, schema) {
  const own = resolve(document, schema);
  const properties = Object.entries(own.properties || {});
  if (!properties.length) return h("p", { class: "help" }, describe(document, schema));
  const required = new Set(own.required || []);
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", {}, "field"), h("th", {}, "type"), h("th", {}, "required"))),
    h("tbody", {}, properties.map(([name, property]) => h("tr", {},
      h("td", {}, h("code", {}, name)), h("td", {}, describe(document, property)),
      h("td", {}, required.has(name) ? "yes" : "")))));
}

function operationView(document, path, method, operation) {
  const parameters = operation.parameters || [];
  const body = (((operation.requestBody || {}).content || {})["application/json"] || {}).schema;
  const answers = Object.entries(operation.responses || {});
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
  return h("section", { class: "card operation", id, "data-operation": `${method.toUpperCase()} ${path}` },
    h("h3", {}, h("span", { class: `badge method-${method}` }, method.toUpperCase()), " ", h("code", {}, path)),
    operation.summary ? h("p", {}, operation.summary) : null,
    parameters.length ? [h("h4", {}, "Parameters"), h("table", { class: "grid" },
      h("tbody", {}, parameters.map((p) => h("tr", {}, h("td", {}, h("code", {}, p.name)), h("td", {}, p.in),
        h("td", {}, describe(document, p.schema)), h("td", {}, p.required ? "required" : "")))))] : null,
    body ? [h("h4", {}, `Body: ${refName(body) || "JSON"}`), fieldsTable(document, body)] : null,
    h("h4", {}, "Answers"),
    h("ul", {}, answers.map(([status, answer]) => {
      const schema = (((answer.content || {})["application/json"] || {}).schema);
      // an error status names its codes (Error409: TAKEN, OVERLAP...): show them, not the model's name
      const codes = schema ? ((resolve(document, schema).properties || {}).code || {}).enum : null;
      const listed = codes ? codes.map((code, i) => [i ? ", " : "", h("code", {}, code)]) : null;
      let detail = schema && refName(schema) ? [" — ", h("code", {}, refName(schema))] : null;
      if (codes && codes.length <= 3) detail = [": ", listed];
      else if (codes) detail = h("details", { class: "codes" }, h("summary", {}, `${codes.length} codes`), listed);
      return h("li", {}, h("strong", {}, status), ` ${answer.description || ""}`, detail);
    })));
}

function render(document) {
  const byTag = new Map();
  for (const [path, methods] of Object.entries(document.paths || {})) {
    for (const method of METHOD_ORDER) {
      const operation = methods[method];
      if (!operation) continue;
      const tag = (operation.tags || ["Other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push([path, method, operation]);
    }
  }
  const tags = [...byTag.keys()].sort();
  replace(root,
    h("header", { class: "page-header" }, h("h1", {}, `${document.info.title} ${document.info.version}`)),
    h("p", { class: "help" }, "Every error answer is JSON {message, code, details}; docs/errors.md lists the codes."),
    document.info.description ? h("p", { class: "help", "data-info": "description" }, document.info.description) : null,
    h("nav", { class: "card toc", "aria-label": "tags" }, tags.map((tag) => h("a", { href: `#tag-${tag.replace(/\W+/g, "-")}` }, tag))),
    tags.map((tag) => h("div", { class: "tag", id: `tag-${tag.replace(/\W+/g, "-")}` }, h("h2", {}, tag),
      byTag.get(tag).map(([path, method, operation]) => operationView(document, path, method, operation)))));
}

async function load() {
  const response = await fetch(new URL("../openapi.json", import.meta.url), { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const openapi = await response.json();
  render(openapi);
  globalThis.document.title = `API reference · ${openapi.info.title}`;
}

load().catch((error) => replace(root, h("div", { class: "error-box", role: "alert" }, `The reference could not load: ${error.message}`)));
