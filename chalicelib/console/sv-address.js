// El Salvador's addresses in a form: department, municipio (the 2024 division) and district (CAT-008,
// the code it had as a municipio before 2024) chosen from the catalogues (sv-places.js), each list
// following the one before it; shown as the API keeps them (06, 23 San Salvador Centro, 14 San Salvador),
// sent as it takes them: ONE field names the place (placeSent).
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { SV_PLACES } from "./sv-places.js";

const named = (place) => ({ value: place.code, label: `${place.code} · ${place.name}` });
const municipiosOf = (department) => SV_PLACES.find((place) => place.code === department)?.municipios || [];
const districtsOf = (department, municipio) =>
  municipiosOf(department).find((place) => place.code === municipio)?.districts || [];

// The municipio and district a stored address names (a pre-2024 code alone names a district).
function placeOf({ department, municipality, district }) {
  const municipios = municipiosOf(department);
  if (municipios.some((place) => place.code === municipality)) return { municipio: municipality, district };
  const holding = municipios.find((place) => place.districts.some((one) => one.code === municipality));
  return holding ? { municipio: holding.code, district: municipality } : { municipio: municipality, district };
}

// The three fields of formView, named `${prefix}department` ... (e.g. "dteIssuer.": the API's
// refusal of dteIssuer.municipality lands beside its select); `values` as the API answers them.
export function placeFields(prefix, values = {}, { required = false, districtHelp } = {}) {
  const { municipio, district } = placeOf(values);
  return [
    { name: `${prefix}department`, label: t("place.department"), type: "select", required, emptyAs: null,
      value: values.department, options: SV_PLACES.map(named) },
    { name: `${prefix}municipality`, label: t("place.municipality"), type: "select", required, emptyAs: null,
      value: municipio, options: municipiosOf(values.department).map(named) },
    { name: `${prefix}district`, label: t("place.district"), type: "select", emptyAs: null, value: district,
      options: districtsOf(values.department, municipio).map(named), help: districtHelp },
  ];
}

// Makes each list follow the one before it in a form made of placeFields(prefix).
export function linkPlaces(form, prefix = "") {
  const select = (name) => form.elements.namedItem(`${prefix}${name}`);
  const [department, municipality, district] = ["department", "municipality", "district"].map(select);
  const fill = (element, places, required) => replace(element,
    required ? null : h("option", { value: "" }, t("common.none")),
    places.map((place) => h("option", { value: place.code }, `${place.code} · ${place.name}`)));
  const districts = () => fill(district, districtsOf(department.value, municipality.value), false);
  department.addEventListener("change", () => {
    fill(municipality, municipiosOf(department.value), municipality.required);
    districts();
  });
  municipality.addEventListener("change", districts);
}

// "06 · San Salvador / 23 · SAN SALVADOR CENTRO / 14 · San Salvador" of a stored address.
export function placeName({ department, municipality, district }) {
  if (!department) return t("common.none");
  const state = SV_PLACES.find((place) => place.code === department);
  const municipio = municipiosOf(department).find((place) => place.code === municipality);
  const town = districtsOf(department, municipality).find((place) => place.code === district);
  return [state ? `${department} · ${state.name}` : department, municipio ? `${municipality} · ${municipio.name}` : municipality,
    district ? (town ? `${district} · ${town.name}` : district) : null].filter(Boolean).join(" / ");
}

// What a form of placeFields sends: the department with the district when one is chosen (it names its
// municipio: the API refuses both), else with the municipality. `values` as the form reads them.
export function placeSent(values, prefix = "") {
  const sent = { ...values };
  delete sent[`${prefix}${sent[`${prefix}district`] ? "municipality" : "district"}`];
  return sent;
}
