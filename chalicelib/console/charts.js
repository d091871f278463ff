// Charts drawn as inline SVG, node by node (no library, nothing from another origin; colours come
// from styles.css classes, since the CSP allows no inline style). A chart is a picture for the
// eye: each one comes with its figures as a table (with a caption) that assistive tools read,
// so the SVG itself is hidden from them.
import { h } from "./dom.js";
import { locale, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// A round step for about `count` gridlines over `span`: 1, 2 or 5 times a power of ten.
function niceStep(span, count) {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  return (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * power;
}

// The axis' range: zero always on it, both ends on a gridline.
function scale(values, count = 4) {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  if (low === high) return { low: 0, high: 1, step: 1 };  // nothing to show but the zero line
  const step = niceStep(high - low, count);
  return { low: Math.floor(low / step) * step, high: Math.ceil(high / step) * step, step };
}

// An axis label: a whole number in the locale, shortened to thousands or millions.
export function axisNumber(value) {
  return new Intl.NumberFormat(locale(), { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

// Vertical bars, grouped: one group per label, one bar per series.
// series: [{label, values: [number], className}]; format(value) -> text (a bar's tooltip)
// sublabels: a second line under some labels (the year under its first month).
export function columnChart({ labels, sublabels = [], series, format, width = 720, height = 240 }) {
  const margin = { top: 12, right: 8, bottom: 40, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const { low, high, step } = scale(series.flatMap((one) => one.values));
  const y = (value) => margin.top + ((high - value) / (high - low)) * plotHeight;
  const band = plotWidth / Math.max(1, labels.length);
  const barWidth = Math.min(28, (band * 0.7) / series.length);
  const grid = [];
  for (let tick = low; tick <= high + step / 2; tick += step) {
    grid.push(s("line", { class: tick === 0 ? "axis" : "gridline", x1: margin.left, x2: width - margin.right,
                          y1: y(tick), y2: y(tick) }),
    s("text", { class: "tick", x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end" }, axisNumber(tick)));
  }
  const groups = labels.map((label, i) => {
    const start = margin.left + band * i + (band - barWidth * series.length) / 2;
    return s("g", {}, series.map((one, j) => {
      const value = one.values[i];
      const top = y(Math.max(0, value));
      return s("rect", { class: `bar ${one.className || `series-${j}`}`, x: start + j * barWidth, y: top,
                         width: Math.max(1, barWidth - 2), height: Math.max(value ? 1 : 0, y(Math.min(0, value)) - top) },
      s("title", {}, `${label} · ${one.label}: ${format(value)}`));
    }),
    s("text", { class: "tick", x: margin.left + band * i + band / 2, y: height - 22, "text-anchor": "middle" }, label),
    sublabels[i] ? s("text", { class: "tick", x: margin.left + band * i + band / 2, y: height - 6, "text-anchor": "middle" },
      sublabels[i]) : null);
  });
  return s("svg", { class: "chart-svg", viewBox: `0 0 ${width} ${height}`, role: "presentation", "aria-hidden": "true",
                    focusable: "false" }, grid, groups);
}

// Horizontal bars, one per item: its name above it, its figure beside it.
// items: [{label, value, className?}]
export function barList({ items, format, width = 440, row = 42 }) {
  const valueWidth = 110;
  const plotWidth = width - valueWidth;
  const { low, high } = scale(items.map((item) => item.value), 2);
  const x = (value) => ((value - low) / (high - low)) * plotWidth;
  const height = Math.max(1, items.length) * row;
  const bars = items.map((item, i) => {
    const top = i * row;
    const start = x(Math.min(0, item.value));
    const end = x(Math.max(0, item.value));
    return s("g", {},
      s("text", { class: "label", x: 0, y: top + 13 }, item.label),
      s("line", { class: "axis", x1: x(0), x2: x(0), y1: top + 16, y2: top + row - 4 }),
      s("rect", { class: `bar ${item.className || "series-0"}`, x: start, y: top + 18, height: row - 24,
                  width: Math.max(item.value ? 1 : 0, end - start) }, s("title", {}, `${item.label}: ${format(item.value)}`)),
      s("text", { class: "value", x: end + 6, y: top + row - 10 }, format(item.value)));
  });
  return s("svg", { class: "chart-svg", viewBox: `0 0 ${width} ${height}`, role: "presentation", "aria-hidden": "true",
                    focusable: "false" }, bars);
}

// The swatches naming each series (the table says the same in words).
export function legend(series) {
  return h("ul", { class: "chart-legend", "aria-hidden": "true" }, series.map((one, j) =>
    h("li", {}, h("span", { class: `swatch ${one.className || `series-${j}`}` }), one.label)));
}

// A chart's figures. columns: [label, or {label, text: true} for a column of words]; rows:
// [{cells: [text], attributes?}], the first cell heads its row; foot: the totals' row.
export function figuresTable({ caption, columns, rows, foot, id }) {
  const numeric = columns.map((column, i) => i > 0 && !column.text);
  const line = (cells, attributes) => h("tr", attributes || {}, cells.map((cell, i) =>
    i === 0 ? h("th", { scope: "row" }, cell) : h("td", { class: numeric[i] ? "num" : undefined }, cell)));
  return h("table", { class: "grid figures-table", id },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, columns.map((column, i) => h("th", { scope: "col", class: numeric[i] ? "num" : undefined },
      column.label ?? column)))),
    h("tbody", {}, rows.map((one) => line(one.cells, one.attributes))),
    foot ? h("tfoot", {}, line(foot.cells, foot.attributes)) : null);
}

// A chart's card: its title, the picture and, a click away, its figures.
export function chartCard({ title, id, chart, table, note }) {
  return h("section", { class: "card chart-card", id },
    h("h2", {}, title),
    h("figure", { class: "chart" }, chart),
    note ? h("p", { class: "help chart-note" }, note) : null,
    h("details", { class: "chart-figures" }, h("summary", {}, t("chart.figures")), h("div", { class: "table-scroll" }, table)));
}
