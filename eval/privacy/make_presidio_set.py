"""Dev-time: write ``presidio_set.jsonl``, a held-out labelled PII set nobody here wrote.

Its parts are public (presidio-research's ``presidio-evaluator`` 0.3.2, MIT licence): the
209 sentence templates of its data generator and its 3,000 FakeNameGenerator.com people — each
with a name, street address, city, postcode and a telephone number in the national format of
one of ~40 countries (GL "84 23 30", PT "21 259 903 5696", HU "(88) 158-170"). The detectors
were not tuned on these rows; only the scores below were read from them.

Run once (network for the wheel only):

    .venv/bin/python -m pip download --no-deps presidio-evaluator==0.3.2 -d /tmp/pe
    .venv/bin/python eval/privacy/make_presidio_set.py /tmp/pe/presidio_evaluator-0.3.2-py3-none-any.whl

Each line is ``{"id", "text", "entities": [{"type", "start", "end", "group"}]}`` with ``group``
the person's country code, so the scorer reports PERSON, ADDRESS and PHONE per locale (the extra phone texts' group is
the Faker locale of the number). Slots
the scrubber has no type for (organisation, city alone, job, date) are filled but unlabelled.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sys
import zipfile
from pathlib import Path

from faker import Faker

OUT = Path(__file__).with_name("presidio_set.jsonl")
RAW = "presidio_evaluator/data_generator/raw_data/"
SEED = 20261202
SAMPLES = 1500
# Extra texts: the generator's phone templates with numbers Faker writes for locales the
# detectors never saw (the tuned set, make_pii_set.py, draws phones from PHONE_LOCALES there).
PHONE_SAMPLES = 600
PHONE_LOCALES = ("pt_PT", "pt_BR", "pl_PL", "cs_CZ", "da_DK", "fi_FI", "hu_HU", "el_GR", "ro_RO",
                 "tr_TR", "ja_JP", "ko_KR", "en_AU", "en_CA", "nl_BE", "de_AT", "de_CH", "no_NO",
                 "he_IL", "uk_UA", "ru_RU", "id_ID", "th_TH", "vi_VN", "zh_CN", "hr_HR", "sk_SK",
                 "bg_BG", "lt_LT", "lv_LV", "et_EE", "sl_SI", "en_NZ", "fr_CH", "es_MX",
                 "es_AR", "es_CO")
# A second set, scored once after the phone detector was frozen on the first: another seed,
# and phone numbers from locales in neither list above nor make_pii_set.py's.
FRESH = Path(__file__).with_name("presidio_fresh.jsonl")
FRESH_SEED = 7_340_211
FRESH_LOCALES = ("fa_IR", "hi_IN", "bn_BD", "ne_NP", "ka_GE", "hy_AM", "az_AZ", "it_CH", "es_CL",
                 "tw_GH", "ar_JO", "ar_AE", "ta_IN", "zh_TW", "uz_UZ", "de_LI", "de_LU", "bs_BA")
SLOT = re.compile(r"\{\{([a-z_]+)\}\}")


def _rows(wheel: zipfile.ZipFile) -> list[dict[str, str]]:
    text = wheel.read(RAW + "FakeNameGenerator.com_3000.csv").decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def _templates(wheel: zipfile.ZipFile) -> list[str]:
    text = wheel.read(RAW + "templates.txt").decode("utf-8", "replace")
    return [line.strip().replace("\\n", "\n").replace("\\,", ",")
            for line in text.splitlines() if line.strip()]


def _values(row: dict[str, str], fake: Faker) -> dict[str, tuple[str, str | None]]:
    """slot -> (text, entity type or None)."""
    street = row["StreetAddress"]
    number = next((w for w in street.split() if w[:1].isdigit()), "")
    address = f"{street}, {row['City']} {row['ZipCode']}".strip()
    name = f"{row['GivenName']} {row['Surname']}"
    person = (name, "PERSON")
    return {
        "person": person, "name": person, "name_female": person, "name_male": person,
        "nation_woman": (row["CountryFull"], None),
        "first_name": (row["GivenName"], None), "first_name_male": (row["GivenName"], None),
        "first_name_female": (row["GivenName"], None), "first_name_nonbinary": (row["GivenName"], None),
        "last_name": (row["Surname"], None), "last_name_male": (row["Surname"], None),
        "last_name_female": (row["Surname"], None),
        "prefix": (row["Title"], None), "prefix_male": (row["Title"], None),
        "prefix_female": (row["Title"], None),
        "address": (address, "ADDRESS"),
        "street_name": (street.replace(number, "").strip(" ,"), None),
        "building_number": (number or "12", None), "secondary_address": (f"Apt. {fake.random_int(1, 99)}", None),
        "city": (row["City"], None), "country": (row["CountryFull"], None),
        "postcode": (row["ZipCode"], None), "zipcode": (row["ZipCode"], None),
        "state_abbr": (row["State"], None),
        "phone_number": (row["TelephoneNumber"], "PHONE"),
        "email": (row["EmailAddress"], "EMAIL"),
        "credit_card_number": (fake.credit_card_number(), "CARD"),  # the CSV's are floats
        "iban": (fake.iban(), "IBAN"),
        "ssn": (fake.ssn(), "SSN"),
        "ip_address": (fake.ipv4_public(), "IP"),
        "organization": (row["Company"], None), "job": (row["Occupation"], None),
        "nationality": (row["CountryFull"], None), "nation_plural": (row["CountryFull"], None),
        "url": (f"https://{row['Domain']}", None),
        "age": (row["Age"], None), "year": (str(fake.year()), None),
        "date_time": (fake.date(), None), "date_of_birth": (row["Birthday"], None),
        "day_of_week": (fake.day_of_week(), None), "us_driver_license": (fake.bothify("?#######"), None),
    }


def fill(template: str, values: dict[str, tuple[str, str | None]],
         group: str) -> tuple[str, list[dict[str, object]]]:
    out: list[str] = []
    entities: list[dict[str, object]] = []
    at = length = 0
    for m in SLOT.finditer(template):
        text, kind = values.get(m.group(1), (m.group(1), None))
        out.append(template[at:m.start()])
        length += m.start() - at
        if kind is not None:
            entities.append({"type": kind, "start": length, "end": length + len(text), "group": group})
        out.append(text)
        length += len(text)
        at = m.end()
    out.append(template[at:])
    return "".join(out), entities


def write(wheel_path: str, out: Path, seed: int, phone_locales: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    Faker.seed(seed)
    fake = Faker("en_US")
    with zipfile.ZipFile(wheel_path) as wheel:
        rows, templates = _rows(wheel), _templates(wheel)
    lines = []
    for i in range(SAMPLES):
        row = rng.choice(rows)
        text, entities = fill(rng.choice(templates), _values(row, fake), row["Country"])
        lines.append(json.dumps({"id": f"q{i:04d}", "text": text, "entities": entities},
                                ensure_ascii=False))
    phone_templates = [t for t in templates if "{{phone_number}}" in t]
    locale_fakers = {loc: Faker(loc) for loc in phone_locales}
    for i in range(PHONE_SAMPLES):
        row, locale = rng.choice(rows), rng.choice(phone_locales)
        values = _values(row, fake)
        values["phone_number"] = (locale_fakers[locale].phone_number(), "PHONE")
        text, entities = fill(rng.choice(phone_templates), values, locale)
        for e in entities:
            e["group"] = locale if e["type"] == "PHONE" else row["Country"]
        lines.append(json.dumps({"id": f"t{i:04d}", "text": text, "entities": entities},
                                ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} texts to {out}")


if __name__ == "__main__":
    write(sys.argv[1], OUT, SEED, PHONE_LOCALES)
    write(sys.argv[1], FRESH, FRESH_SEED, FRESH_LOCALES)
