// The console's shell: the session, the navigation, the company switcher and the hash router
// that loads each page module on first use.
import { ApiError, api, onSessionLost } from "./api.js";
import { h, replace } from "./dom.js";
import { setCurrency } from "./format.js";
import { language, setCountry, setLanguage, t } from "./i18n.js";
import { describeError, loadInto, toast, withQuery } from "./ui.js";

// path pattern -> page module (under pages/) and the function it exports for that path
const ROUTES = [
  ["/login", "login", "render", { public: true }],
  ["/accept-invitation", "accept-invitation", "render", { public: true }],
  ["/", "home", "render"],
  ["/documents", "documents", "list"],
  ["/documents/new", "document-form", "render"],
  ["/documents/:id", "document", "render"],
  ["/partners", "partners", "list"],
  ["/partners/:id", "partners", "detail"],
  ["/products", "products", "list"],
  ["/stock", "products", "stock"],
  ["/inventory/adjustments", "inventory-adjustments", "list"],
  ["/inventory/adjustments/new", "inventory-adjustments", "create"],
  ["/inventory/adjustments/:id", "inventory-adjustments", "detail"],
  ["/inventory/count", "inventory-count", "render"],
  ["/inventory/transfers", "inventory-transfers", "list"],
  ["/inventory/transfers/new", "inventory-transfers", "create"],
  ["/inventory/transfers/:id", "inventory-transfers", "detail"],
  ["/inventory/valuation", "inventory-valuation", "render"],
  ["/accounting/chart", "accounting", "chart"],
  ["/accounting/ledger", "accounting", "ledger"],
  ["/accounting/trial-balance", "accounting", "trialBalance"],
  ["/accounting/periods", "accounting", "periods"],
  ["/accounting/exchange-rates", "exchange-rates", "render"],
  ["/accounting/tax-settlements", "tax-settlements", "render"],
  ["/accounting/entries", "journal", "list"],
  ["/accounting/entries/:id", "journal", "detail"],
  ["/reports/balance-sheet", "reports", "balanceSheet"],
  ["/reports/income-statement", "reports", "incomeStatement"],
  ["/reports/aged-receivables", "reports", "agedReceivables"],
  ["/reports/aged-payables", "reports", "agedPayables"],
  ["/reports/sales-book", "reports", "salesBook"],
  ["/reports/purchase-book", "reports", "purchaseBook"],
  ["/reports/isv-summary", "reports", "isvSummary"],
  ["/reports/iva-sales-consumers", "reports", "ivaConsumers"],
  ["/reports/iva-sales-taxpayers", "reports", "ivaTaxpayers"],
  ["/reports/iva-purchases", "reports", "ivaPurchases"],
  ["/reports/cash-flow", "cash-flow", "cashFlow"],
  ["/reports/budget-vs-actual", "budget-vs-actual", "render"],
  ["/budgets", "budgets", "list"],
  ["/budgets/:id", "budgets", "editor"],
  ["/banking", "banking", "list"],
  ["/banking/:id", "banking", "detail"],
  ["/banking/:id/statements", "bank-statements", "render"],
  ["/bank-rules", "bank-rules", "render"],
  ["/settings/company", "settings-company", "render"],
  ["/settings/users", "settings-users", "render"],
  ["/settings/audit-log", "settings-users", "auditLog"],
  ["/settings/password", "settings-users", "password"],
  ["/settings/api-keys", "settings-api-keys", "render"],
  ["/settings/webhooks", "settings-webhooks", "list"],
  ["/settings/webhooks/:id", "settings-webhooks", "detail"],
  ["/settings/payment-setup", "settings-payments", "paymentSetup"],
  ["/settings/gateways", "settings-gateways", "gateways"],
  ["/settings/branches", "settings-branches", "branches"],
  ["/settings/warehouses", "settings-branches", "warehouses"],
  ["/settings/scheduled-invoices", "settings-scheduled", "render"],
  ["/settings/cost-centres", "settings-dimensions", "render"],
  ["/imports", "imports", "render"],
];

const MANAGERS = ["owner", "admin"];
// the roles that may import something (pages/imports.js offers each the kinds it may)
const IMPORTERS = ["owner", "admin", "accountant", "seller"];
const NAVIGATION = [
  ["nav.home", "/"], ["nav.documents", "/documents"], ["nav.partners", "/partners"], ["nav.products", "/products"],
  { title: "nav.inventory", items: [["nav.stock", "/stock"], ["nav.adjustments", "/inventory/adjustments"],
    ["nav.count", "/inventory/count"], ["nav.transfers", "/inventory/transfers"], ["nav.valuation", "/inventory/valuation"]] },
  { title: "nav.accounting", items: [["nav.chart", "/accounting/chart"], ["nav.entries", "/accounting/entries"],
    ["nav.ledger", "/accounting/ledger"], ["nav.trialBalance", "/accounting/trial-balance"], ["nav.periods", "/accounting/periods"],
    ["nav.exchangeRates", "/accounting/exchange-rates"], ["nav.taxSettlements", "/accounting/tax-settlements"],
    ["records.dim.title", "/settings/cost-centres"]] },
  // a third element names the one country whose companies have that report
  { title: "nav.reports", items: [["nav.balanceSheet", "/reports/balance-sheet"], ["nav.incomeStatement", "/reports/income-statement"],
    ["mend.nav.cashFlow", "/reports/cash-flow"], ["mend.nav.budgetVsActual", "/reports/budget-vs-actual"], ["mend.nav.budgets", "/budgets"],
    ["nav.agedReceivables", "/reports/aged-receivables"], ["nav.agedPayables", "/reports/aged-payables"],
    ["nav.salesBook", "/reports/sales-book", "HN"], ["nav.purchaseBook", "/reports/purchase-book", "HN"],
    ["nav.isvSummary", "/reports/isv-summary", "HN"], ["nav.ivaConsumers", "/reports/iva-sales-consumers", "SV"],
    ["nav.ivaTaxpayers", "/reports/iva-sales-taxpayers", "SV"], ["nav.ivaPurchases", "/reports/iva-purchases", "SV"]] },
  ["nav.banking", "/banking"],
  ["stmt.rule.title", "/bank-rules"],
  { link: ["nav.imports", "/imports"], roles: IMPORTERS },
  { title: "nav.settings", managers: true, items: [["nav.company", "/settings/company"], ["nav.users", "/settings/users"],
    ["nav.apiKeys", "/settings/api-keys"], ["nav.webhooks", "/settings/webhooks"], ["nav.paymentSetup", "/settings/payment-setup"],
    ["nav.gateways", "/settings/gateways"], ["nav.branches", "/settings/branches"], ["nav.warehouses", "/settings/warehouses"],
    ["nav.scheduled", "/settings/scheduled-invoices"], ["nav.audit", "/settings/audit-log"]] },
];

export const session = { me: null, company: null };

function parseLocation() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, search] = raw.split("?");
  return { path: path || "/", query: Object.fromEntries(new URLSearchParams(search || "")) };
}

function match(path) {
  for (const [pattern, module, view, options] of ROUTES) {
    const names = [];
    const regex = new RegExp("^" + pattern.replace(/:(\w+)/g, (_, name) => { names.push(name); return "([^/]+)"; }) + "$");
    const found = path.match(regex);
    if (found) {
      return { module, view, options: options || {},
               params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])])) };
    }
  }
  return null;
}

export function navigate(path) {
  // "loading" at once: the hashchange event that routes comes a moment later
  document.getElementById("app").dataset.state = "loading";
  if (location.hash === `#${path}`) route();
  else location.hash = path;
}

export async function loadSession() {
  session.me = await api.get("/auth/me");
  session.company = await api.get("/companies");
  setCountry(session.company.country);
  setCurrency(session.company.currency);
  return session;
}

export function isManager() { return session.me && MANAGERS.includes(session.me.role); }

function navigation(current) {
  // a record's page (#/inventory/adjustments/7) keeps its list's link lit
  const lit = (path) => current === path || (path !== "/" && current.startsWith(`${path}/`));
  const link = ([key, path]) => h("a", { href: `#${path}`, class: lit(path) ? "active" : undefined }, t(key));
  return h("nav", { class: "sidebar", id: "sidebar", "aria-label": t("app.title") }, NAVIGATION.map((entry) => {
    if (Array.isArray(entry)) return link(entry);
    if (entry.link) return entry.roles.includes(session.me?.role) ? link(entry.link) : null;
    if (entry.managers && !isManager()) return null;
    const items = entry.items.filter(([, , country]) => !country || country === (session.company?.country || "HN"));
    return h("div", { class: "nav-group" }, h("span", {}, t(entry.title)), items.map(link));
  }));
}

// On a small screen the navigation hides behind a button (styles.css): it opens and closes it,
// says so (aria-expanded), and Escape closes it again with the focus back on the button. A new
// page draws the shell afresh, so choosing a link closes the menu.
function menuButton() {
  const toggle = h("button", { type: "button", id: "menu-toggle", class: "menu-toggle", "aria-controls": "sidebar",
    "aria-expanded": "false" }, h("span", { "aria-hidden": "true" }, "\u2630 "), t("nav.menu"));
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    showMenu(toggle, open);
    if (open) document.querySelector("#sidebar a")?.focus();
  });
  return toggle;
}

function showMenu(toggle, open) {
  toggle.setAttribute("aria-expanded", String(open));
  toggle.closest(".shell")?.classList.toggle("menu-open", open);
}

document.addEventListener("keydown", (event) => {
  const toggle = document.getElementById("menu-toggle");
  if (event.key !== "Escape" || toggle?.getAttribute("aria-expanded") !== "true") return;
  showMenu(toggle, false);
  toggle.focus();
});

function companyOption(company) {
  return h("option", { value: company.companyId, selected: company.companyId === session.me.companyId || undefined },
    company.name);
}

// The session names 50 of the user's companies (its own always among them); an accounting firm
// with more searches the rest by name (GET /auth/companies).
function companySearch(switcher) {
  if (session.me.companiesTotal <= session.me.companies.length) return null;
  let pending;
  return h("input", { type: "search", id: "company-search", "aria-label": t("nav.company.search"),
    placeholder: t("nav.company.search"),
    oninput: (event) => {
      clearTimeout(pending);
      pending = setTimeout(async () => {
        const found = await api.get(withQuery("/auth/companies", { q: event.target.value, limit: 50 }));
        const current = session.me.companies.filter((company) => company.companyId === session.me.companyId);
        const others = found.companies.filter((company) => company.companyId !== session.me.companyId);
        switcher.replaceChildren(...[...current, ...others].map(companyOption));
      }, 250);
    } });
}

function topBar() {
  const switcher = h("select", { id: "company-switcher", "aria-label": t("nav.company.switch"),
    onchange: async (event) => {
      const app = document.getElementById("app");
      app.dataset.state = "loading";
      try {
        await api.post("/auth/switch-company", { companyId: Number(event.target.value) });
        await loadSession();
        navigate("/");
      } catch (error) {
        toast(describeError(error), "error");
        app.dataset.state = "ready";
      }
    } },
  session.me.companies.map(companyOption));
  const languages = h("select", { id: "language", "aria-label": t("nav.language"),
    onchange: (event) => { setLanguage(event.target.value); route(); } },
  [["es", "Español"], ["en", "English"]].map(([code, name]) => h("option", { value: code, selected: code === language() || undefined }, name)));
  return h("header", { class: "topbar" },
    h("div", { class: "topbar-start" }, menuButton(), h("a", { class: "brand", href: "#/" }, t("app.title"))),
    h("div", { class: "topbar-tools" }, switcher, companySearch(switcher),
      h("span", { class: "who", "data-role": session.me.role }, `${session.me.user.name} · ${t(`role.${session.me.role}`)}`),
      languages,
      h("a", { href: "#/settings/password" }, t("nav.password")),
      h("button", { type: "button", id: "logout", onclick: logout }, t("nav.logout"))));
}

async function logout() {
  try { await api.post("/auth/logout"); } catch { /* the session may already be gone */ }
  session.me = null;
  navigate("/login");
}

let routing = 0;
export async function route() {
  const ticket = ++routing;
  const app = document.getElementById("app");
  // Tests and assistive tools wait for "ready": the page's data has arrived (or failed to), for
  // the address in `data-route` (a link's click changes the address before this runs).
  app.dataset.state = "loading";
  const shown = location.hash;
  const ready = () => { app.dataset.route = shown; app.dataset.state = "ready"; };
  const { path, query } = parseLocation();
  const found = match(path);
  document.documentElement.lang = language();
  if (!found) { replace(app, h("p", { class: "error-box" }, t("error.notFound"))); ready(); return; }
  if (!found.options.public && !session.me) {
    try { await loadSession(); } catch (error) {
      if (error instanceof ApiError && error.status === 401) { navigate("/login"); return; }
      replace(app, h("p", { class: "error-box" }, describeError(error)));
      ready();
      return;
    }
  }
  if (ticket !== routing) return;
  const root = h("main", { class: "content", id: "content", "data-page": `${found.module}.${found.view}` });
  replace(app, found.options.public ? h("div", { class: "public" }, root)
    : h("div", { class: "shell" }, topBar(), h("div", { class: "body" }, navigation(path), root)));
  const ctx = { root, params: found.params, query, session, navigate, refresh: route };
  await loadInto(root, async () => {
    const module = await import(`./pages/${found.module}.js`);
    const holder = h("div", { class: "page" });
    ctx.root = holder;
    await module[found.view](ctx);
    return holder;
  });
  if (ticket !== routing) return;
  document.title = `${root.querySelector("h1")?.textContent || t("app.title")} · ${t("app.title")}`;
  ready();
}

onSessionLost(() => {
  session.me = null;
  if (!match(parseLocation().path)?.options.public) navigate("/login");
});
window.addEventListener("hashchange", route);
setLanguage(language());
route();
