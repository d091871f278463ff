// Labels in Spanish (es-HN) by default, English on request. Each page module adds its own
// strings with addStrings(), so no file holds every label of the console.
const LANGUAGES = ["es", "en"];
const strings = { es: {}, en: {} };
let current = localStorage.getItem("console.language") || "es";
if (!LANGUAGES.includes(current)) current = "es";
let country = "HN";

export function addStrings(table) {
  for (const language of LANGUAGES) Object.assign(strings[language], table[language] || {});
}

export function language() { return current; }

export function setLanguage(value) {
  current = LANGUAGES.includes(value) ? value : "es";
  localStorage.setItem("console.language", current);  // a preference, nothing secret
  document.documentElement.lang = current;
}

export function setCountry(value) { country = value || "HN"; }

// The locale numbers and dates are shown in: the language, in the company's country.
export function locale() { return current === "en" ? `en-${country}` : `es-${country}`; }

// t("key", {name: "x"}) -> the label in the current language; unknown keys fall back to English,
// then to a readable form of the key itself (a field name such as "creditDays").
export function t(key, values) {
  let text = strings[current][key] ?? strings.en[key] ?? humanize(key);
  for (const [name, value] of Object.entries(values || {})) text = text.replaceAll(`{${name}}`, value);
  return text;
}

export function humanize(key) {
  const words = String(key).replace(/^.*\./, "").replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

addStrings({
  es: {
    "app.title": "Consola", "nav.home": "Inicio", "nav.documents": "Documentos", "nav.partners": "Clientes y proveedores",
    "nav.products": "Productos", "nav.stock": "Existencias", "nav.accounting": "Contabilidad", "nav.chart": "Catálogo de cuentas",
    "nav.ledger": "Libro mayor", "nav.trialBalance": "Balanza de comprobación", "nav.periods": "Períodos", "nav.entries": "Partidas",
    "nav.banking": "Bancos", "nav.settings": "Configuración", "nav.company": "Empresa", "nav.users": "Usuarios y roles",
    "nav.apiKeys": "Claves API", "nav.webhooks": "Webhooks", "nav.paymentSetup": "Métodos y condiciones de pago",
    "nav.gateways": "Pasarelas de pago", "nav.branches": "Sucursales y CAI", "nav.scheduled": "Facturas programadas",
    "nav.audit": "Bitácora", "nav.logout": "Cerrar sesión", "nav.password": "Cambiar contraseña", "nav.company.switch": "Empresa", "nav.company.search": "Buscar empresa", "common.typeToSearch": "Escriba para buscar",
    "nav.language": "Idioma", "nav.warehouses": "Bodegas", "nav.inventory": "Inventario",
    "nav.adjustments": "Ajustes de inventario", "nav.count": "Conteo físico", "nav.transfers": "Traslados",
    "nav.valuation": "Valuación de inventario", "nav.exchangeRates": "Tipos de cambio",
    "common.save": "Guardar", "common.create": "Crear", "common.cancel": "Cancelar", "common.close": "Cerrar",
    "common.edit": "Editar", "common.delete": "Eliminar", "common.new": "Nuevo", "common.search": "Buscar",
    "common.filter": "Filtrar", "common.previous": "Anterior", "common.next": "Siguiente", "common.yes": "Sí", "common.no": "No",
    "common.loading": "Cargando…", "common.empty": "No hay registros.", "common.actions": "Acciones",
    "common.page": "Página {page} de {pages} · {total} registros", "common.confirm": "¿Está seguro?",
    "common.saved": "Guardado.", "common.deleted": "Eliminado.", "common.copy": "Copiar", "common.copied": "Copiado.",
    "common.all": "Todos", "common.none": "—", "common.back": "Volver", "common.details": "Detalle", "common.active": "Activo",
    "common.inactive": "Inactivo", "common.status": "Estado", "common.date": "Fecha", "common.total": "Total",
    "error.generic": "No se pudo completar la operación.", "error.network": "No hay conexión con el servicio.",
    "error.forbidden": "Su rol no permite ver esta página.", "error.notFound": "No encontrado.",
    "secret.once": "Copie este secreto ahora: no se volverá a mostrar.",
  },
  en: {
    "app.title": "Console", "nav.home": "Home", "nav.documents": "Documents", "nav.partners": "Customers and suppliers",
    "nav.products": "Products", "nav.stock": "Stock", "nav.accounting": "Accounting", "nav.chart": "Chart of accounts",
    "nav.ledger": "Ledger", "nav.trialBalance": "Trial balance", "nav.periods": "Periods", "nav.entries": "Journal entries",
    "nav.banking": "Banking", "nav.settings": "Settings", "nav.company": "Company", "nav.users": "Users and roles",
    "nav.apiKeys": "API keys", "nav.webhooks": "Webhooks", "nav.paymentSetup": "Payment methods and conditions",
    "nav.gateways": "Payment gateways", "nav.branches": "Branches and CAI", "nav.scheduled": "Scheduled invoices",
    "nav.audit": "Audit log", "nav.logout": "Log out", "nav.password": "Change password", "nav.company.switch": "Company", "nav.company.search": "Find a company", "common.typeToSearch": "Type to search",
    "nav.language": "Language", "nav.warehouses": "Warehouses", "nav.inventory": "Inventory",
    "nav.adjustments": "Inventory adjustments", "nav.count": "Stock count", "nav.transfers": "Transfers",
    "nav.valuation": "Inventory valuation", "nav.exchangeRates": "Exchange rates",
    "common.save": "Save", "common.create": "Create", "common.cancel": "Cancel", "common.close": "Close",
    "common.edit": "Edit", "common.delete": "Delete", "common.new": "New", "common.search": "Search",
    "common.filter": "Filter", "common.previous": "Previous", "common.next": "Next", "common.yes": "Yes", "common.no": "No",
    "common.loading": "Loading…", "common.empty": "Nothing here yet.", "common.actions": "Actions",
    "common.page": "Page {page} of {pages} · {total} records", "common.confirm": "Are you sure?",
    "common.saved": "Saved.", "common.deleted": "Deleted.", "common.copy": "Copy", "common.copied": "Copied.",
    "common.all": "All", "common.none": "—", "common.back": "Back", "common.details": "Details", "common.active": "Active",
    "common.inactive": "Inactive", "common.status": "Status", "common.date": "Date", "common.total": "Total",
    "error.generic": "The operation could not be completed.", "error.network": "The service cannot be reached.",
    "error.forbidden": "Your role may not see this page.", "error.notFound": "Not found.",
    "secret.once": "Copy this secret now: it will not be shown again.",
  },
});

// Values the API sends that people read: roles, statuses, document types.
addStrings({
  es: {
    "role.owner": "Propietario", "role.admin": "Administrador", "role.accountant": "Contador", "role.seller": "Vendedor",
    "role.viewer": "Consulta",
    "status.draft": "Borrador", "status.confirmed": "Confirmado", "status.cancelled": "Anulado", "status.pending": "Pendiente",
    "status.posted": "Contabilizada", "status.reversed": "Revertida", "status.open": "Abierto", "status.closed": "Cerrado",
    "status.active": "Activo", "status.invited": "Invitado", "status.inactive": "Inactivo", "status.revoked": "Revocada",
    "status.expired": "Vencida", "status.completed": "Completada", "status.succeeded": "Entregado", "status.failed": "Fallido",
    "status.delivered": "Entregado", "status.queued": "En cola", "status.accepted": "Aceptado", "status.rejected": "Rechazado",
    "status.true": "Sí", "status.false": "No", "status.retrying": "Reintentando", "status.skipped": "Omitido",
    "status.refused": "Rechazada", "status.ignored": "Ignorada",
    "status.closing": "Cerrando", "status.reopening": "Reabriendo",
    "doctype.01": "Factura", "doctype.03": "Crédito fiscal", "doctype.05": "Comprobante de retención", "doctype.06": "Nota de crédito",
    "doctype.07": "Nota de débito", "doctype.11": "Gasto", "doctype.100": "Cotización", "doctype.101": "Pedido",
    "doctype.102": "Orden de compra", "doctype.103": "Factura de compra", "doctype.104": "Importación",
    "doctype.105": "Nota de crédito de compra", "doctype.106": "Nota de débito de compra", "doctype.112": "Entrega",
    "doctype.113": "Factura de reserva", "doctype.900": "Saldo inicial de cliente", "doctype.901": "Saldo inicial de proveedor",
    "currency.HNL": "HNL (lempiras)", "currency.USD": "USD (dólares)",
  },
  en: {
    "role.owner": "Owner", "role.admin": "Administrator", "role.accountant": "Accountant", "role.seller": "Seller",
    "role.viewer": "Viewer",
    "status.draft": "Draft", "status.confirmed": "Confirmed", "status.cancelled": "Cancelled", "status.pending": "Pending",
    "status.posted": "Posted", "status.reversed": "Reversed", "status.open": "Open", "status.closed": "Closed",
    "status.active": "Active", "status.invited": "Invited", "status.inactive": "Inactive", "status.revoked": "Revoked",
    "status.expired": "Expired", "status.completed": "Completed", "status.succeeded": "Delivered", "status.failed": "Failed",
    "status.delivered": "Delivered", "status.queued": "Queued", "status.accepted": "Accepted", "status.rejected": "Rejected",
    "status.true": "Yes", "status.false": "No", "status.retrying": "Retrying", "status.skipped": "Skipped",
    "status.refused": "Refused", "status.ignored": "Ignored",
    "status.closing": "Closing", "status.reopening": "Reopening",
    "doctype.01": "Sales invoice", "doctype.03": "Tax credit invoice", "doctype.05": "Withholding certificate",
    "doctype.06": "Sales credit note", "doctype.07": "Sales debit note", "doctype.11": "Expense", "doctype.100": "Quote",
    "doctype.101": "Sales order", "doctype.102": "Purchase order", "doctype.103": "Purchase invoice", "doctype.104": "Import",
    "doctype.105": "Purchase credit note", "doctype.106": "Purchase debit note", "doctype.112": "Delivery",
    "doctype.113": "Reservation invoice", "doctype.900": "Customer opening balance", "doctype.901": "Supplier opening balance",
    "currency.HNL": "HNL (lempiras)", "currency.USD": "USD (US dollars)",
  },
});

export const DOCUMENT_TYPES = ["01", "06", "07", "100", "101", "112", "113", "103", "104", "105", "106", "102", "11", "05"];
// the currencies a document, bank account or exchange rate may be in
export const CURRENCIES = ["HNL", "USD"];
export const ROLES = ["owner", "admin", "accountant", "seller", "viewer"];

// The reports' navigation (the pages' own labels are in pages/reports.js).
addStrings({
  es: {
    "nav.reports": "Informes", "nav.balanceSheet": "Balance general", "nav.incomeStatement": "Estado de resultados",
    "nav.agedReceivables": "Antigüedad por cobrar", "nav.agedPayables": "Antigüedad por pagar",
    "nav.salesBook": "Libro de ventas", "nav.purchaseBook": "Libro de compras", "nav.isvSummary": "Resumen de ISV",
    "nav.ivaConsumers": "IVA: consumidor final", "nav.ivaTaxpayers": "IVA: contribuyentes", "nav.ivaPurchases": "IVA: compras",
  },
  en: {
    "nav.reports": "Reports", "nav.balanceSheet": "Balance sheet", "nav.incomeStatement": "Income statement",
    "nav.agedReceivables": "Aged receivables", "nav.agedPayables": "Aged payables",
    "nav.salesBook": "Sales book", "nav.purchaseBook": "Purchase book", "nav.isvSummary": "ISV summary",
    "nav.ivaConsumers": "IVA: final consumers", "nav.ivaTaxpayers": "IVA: taxpayers", "nav.ivaPurchases": "IVA: purchases",
  },
});
