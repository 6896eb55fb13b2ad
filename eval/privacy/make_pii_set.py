"""Dev-time: write ``pii_set.jsonl``, the labelled PII set (``faker`` is a dev extra).

Run: ``.venv/bin/python eval/privacy/make_pii_set.py``. Seeded, so the output is stable.

Each line is ``{"id", "text", "entities": [{"type", "start", "end", "group"?}]}``: learner-style
messages and note fragments with Faker values in them (every locale and format the generator
offers for a type, not only the ones the detectors were tuned on), plus hard negatives —
dates, versions, ISBNs, hashes, coordinates, prices, loopback addresses, famous scientists,
named theorems — that carry no personal data at all. A PERSON's ``group`` is ``listed`` or
``held_out``: held-out names come from locales the detector's name lists were NOT built from.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

from faker import Faker

OUT = Path(__file__).with_name("pii_set.jsonl")
SEED = 20260318
LISTED = ("en_US", "en_GB", "fr_FR", "es_ES", "it_IT", "de_DE")  # = make_name_lists.LIST_LOCALES
HELD_OUT = ("nl_NL", "sv_SE", "en_IN", "pt_BR", "pl_PL", "cs_CZ")
PHONE_LOCALES = ("en_US", "en_US", "en_US", "en_GB", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT",
                 "nl_NL", "en_IN", "sv_SE")
IBAN_LOCALES = ("en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "pt_PT", "fi_FI")
CARD_TYPES = ("visa16", "visa13", "visa19", "mastercard", "amex", "discover", "diners", "jcb15",
              "jcb16", "maestro")
HONORIFICS = ("Dr.", "Dr", "Mr.", "Mrs.", "Ms.", "Prof.", "Professor", "Miss", "Mr")

rng = random.Random(SEED)
Faker.seed(SEED)
fakers = {loc: Faker(loc) for loc in {*LISTED, *HELD_OUT, *PHONE_LOCALES, *IBAN_LOCALES}}
us = fakers["en_US"]


def _grouped(value: str, sizes: tuple[int, ...], sep: str) -> str:
    out, at = [], 0
    for size in sizes:
        out.append(value[at:at + size])
        at += size
    if at < len(value):
        out.append(value[at:])
    return sep.join(p for p in out if p)


def email() -> str:
    f = fakers[rng.choice(LISTED)]
    value = rng.choice([us.email, us.free_email, us.company_email, f.email, us.safe_email])()
    return value.upper() if rng.random() < 0.05 else value


def phone() -> str:
    return fakers[rng.choice(PHONE_LOCALES)].phone_number()


def card() -> str:
    kind = rng.choice(CARD_TYPES)
    number = us.credit_card_number(card_type=kind)
    style = rng.random()
    if style < 0.4:
        return number
    sep = " " if style < 0.8 else "-"
    if len(number) == 13:
        return number  # 13-digit Visa numbers have no customary grouping
    sizes = (4, 6, 5) if len(number) == 15 else (4, 6, 4) if len(number) == 14 else (4, 4, 4, 4)
    return _grouped(number, sizes, sep)


def iban() -> str:
    value = fakers[rng.choice(IBAN_LOCALES)].iban()
    return _grouped(value, (4,) * 9, " ") if rng.random() < 0.4 else value


def ssn() -> str:
    return us.ssn()


def ip() -> str:
    return rng.choice([us.ipv4_public, us.ipv4_public, us.ipv4_private, us.ipv6])()


def address() -> str:
    value = us.address()
    style = rng.random()
    if style < 0.35:
        return value.replace("\n", ", ")
    if style < 0.6:
        return us.street_address()
    return value


def person(group: list[str]) -> str:
    held = rng.random() < 0.3
    f = fakers[rng.choice(HELD_OUT if held else LISTED)]
    group.append("held_out" if held else "listed")
    return f"{f.first_name()} {f.last_name()}"


Slot = Callable[[], str]


def build(template: str, group: list[str]) -> tuple[str, list[dict[str, object]]]:
    """Fill ``{TYPE}`` slots; ``{PERSON}`` and ``{HON}{LAST}`` are names, others values."""
    makers: dict[str, Slot] = {
        "EMAIL": email, "PHONE": phone, "CARD": card, "IBAN": iban, "SSN": ssn, "IP": ip,
        "ADDRESS": address, "PERSON": lambda: person(group),
    }
    text, entities = "", []
    for piece in re.split(r"(\{[A-Z]+\})", template):
        slot = piece[1:-1] if piece.startswith("{") else None
        if slot == "HON":
            text += rng.choice(HONORIFICS) + " "
        elif slot == "LAST":
            f = fakers[rng.choice(LISTED)]
            value = f.last_name()
            entities.append({"type": "PERSON", "start": len(text), "end": len(text) + len(value),
                             "group": "listed"})
            text += value
        elif slot in makers:
            value = makers[slot]()
            entity: dict[str, object] = {"type": slot, "start": len(text),
                                         "end": len(text) + len(value)}
            if slot == "PERSON":
                entity["group"] = group[-1]
            entities.append(entity)
            text += value
        elif slot is not None:
            text += NEGATIVE_FILL[slot]()
        else:
            text += piece
    return text, entities


def _luhn_valid_digits(prefix: str, n: int) -> str:
    from studyhall.core.guardrails.checksums import luhn_valid

    while True:
        digits = prefix + "".join(str(rng.randint(0, 9)) for _ in range(n - len(prefix)))
        if luhn_valid(digits):
            return digits


def _luhn_invalid_digits(n: int) -> str:
    from studyhall.core.guardrails.checksums import luhn_valid

    while True:
        digits = str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))
        if not luhn_valid(digits):
            return digits


NEGATIVE_FILL: dict[str, Slot] = {
    "DATE": lambda: us.date(),
    "DMY": lambda: us.date(pattern=rng.choice(["%d-%m-%Y", "%d.%m.%Y", "%m/%d/%Y", "%Y%m%d"])),
    "TIME": lambda: us.time(),
    "YEAR": lambda: us.year(),
    "VERSION": lambda: f"{rng.randint(0, 12)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}",
    "ISBN": lambda: rng.choice([us.isbn13, us.isbn10])(),
    "UUID": lambda: str(us.uuid4()),
    "SHA": lambda: us.sha1(),
    "PRICE": lambda: us.pricetag(),
    "LAT": lambda: f"{us.latitude()}, {us.longitude()}",
    "INT": lambda: str(rng.randint(10, 10**rng.randint(3, 9))),
    "BIG": lambda: _luhn_invalid_digits(rng.choice([12, 13, 15, 16, 19])),
    "GROUPED": lambda: _grouped(_luhn_invalid_digits(16), (4, 4, 4, 4), " "),
    "PAGES": lambda: f"{(a := rng.randint(1, 400))}-{a + rng.randint(2, 40)}",
    "MATH": lambda: f"{rng.randint(2, 999)} * {rng.randint(2, 999)} = ?",
    "HEX": lambda: us.hexify("^^:^^:^^:^^:^^:^^", upper=True),
    "LOOP": lambda: rng.choice(["127.0.0.1", "0.0.0.0", "255.255.255.0", "::1",
                                "10.0.0.0/8", "192.168.0.0/16", "172.16.0.0/12"]),
    "FAMOUS": lambda: rng.choice([
        "Isaac Newton", "Albert Einstein", "Marie Curie", "Alan Turing", "Ada Lovelace",
        "Charles Darwin", "Grace Hopper", "Leonhard Euler", "Carl Friedrich Gauss",
        "Emmy Noether", "Richard Feynman", "Niels Bohr", "Max Planck", "John von Neumann",
        "Claude Shannon", "Edsger Dijkstra", "Donald Knuth", "Adam Smith", "John Locke"]),
    "CONCEPT": lambda: rng.choice([
        "the Jordan Curve Theorem", "Gauss Jordan elimination", "the Monte Carlo Method",
        "Bayes Theorem", "the Pythagorean Theorem", "Newton's Laws", "the Doppler Effect",
        "the Krebs Cycle", "the Turing Test", "Ohm's Law", "the Fourier Transform",
        "the Taylor Series", "the Higgs Field", "the French Revolution", "the Roman Empire",
        "World War II", "the Cold War", "the Industrial Revolution", "the Big Bang"]),
    "EAN": lambda: us.ean13(),
    "IMEI": lambda: _luhn_valid_digits(rng.choice(["35", "86", "01"]), 15),
    "ROUTING": lambda: "".join(str(rng.randint(0, 9)) for _ in range(9)),
    "EPOCH": lambda: str(rng.randint(1_400_000_000, 1_800_000_000)),
    "ZIP4": lambda: f"{us.postcode()}-{rng.randint(1000, 9999)}",
    "SCI": lambda: rng.choice(["6.02214076e23", "1.602176634 x 10^-19", "+25.5 °C", "-273.15",
                               "9.80665 m/s^2", "+0.5 V", "3.14159265358979"]),
    "PLACE": lambda: rng.choice([
        "New York", "San Francisco", "Buenos Aires", "Hong Kong", "Lake Victoria", "Mount Everest",
        "Harvard University", "the University of Toronto", "Los Angeles", "the Amazon River",
        "Saint Petersburg", "Cape Town", "the Sahara Desert", "Silicon Valley", "Tokyo"]),
}

POSITIVE = [
    "Can you send the summary of today's session to {EMAIL}? I keep losing my notes.",
    "My study partner is {PERSON} ({EMAIL}); we revise together on Tuesdays.",
    "Text me at {PHONE} when the practice quiz is ready.",
    "I paid for the course with the card {CARD} but the payment failed, why?",
    "The university wants the fee paid to {IBAN}. What does the IBAN format mean?",
    "For the financial aid form they asked my SSN ({SSN}). Is that normal?",
    "The lab server at {IP} keeps timing out while I run my assignment.",
    "Please ship the textbook to {ADDRESS}.",
    "{PERSON} explained recursion better than my lecturer did.",
    "I went to office hours with {HON}{LAST} and still don't get eigenvalues.",
    "Meeting notes, attendees: {PERSON}, {PERSON}. Contact: {EMAIL}, {PHONE}.",
    "My name is {PERSON} and I'm studying for the biology midterm.",
    "my friend {PERSON} says the derivative of x^2 is 2x, is that right?",
    "Call {PHONE} or write to {EMAIL} if the group project changes.",
    "Billing: card {CARD}, billing address {ADDRESS}.",
    "From: {PERSON} <{EMAIL}>\nSubject: chemistry notes\nHere are the notes from lab 3.",
    "I live at {ADDRESS} and the library closes at 6, can we meet online?",
    "Our tutor {HON}{LAST} gave us a quiz on the Krebs cycle.",
    "Router log: connection from {IP} refused, then from {IP} accepted.",
    "Refund to IBAN {IBAN}, account holder {PERSON}.",
    "ssn {SSN}, phone {PHONE}, email {EMAIL} — why does the form need all of this?",
    "Dear {HON}{LAST},\nI missed the lecture on thermodynamics. Could you share the slides?",
    "Thanks for the help!\nBest,\n{PERSON}",
    "I asked {PERSON} and {PERSON} but neither knew how to balance this equation.",
    "Server {IP} on port 8080 returns 404 in my web dev homework.",
    "The invoice for the course went to {EMAIL} and to {ADDRESS}.",
    "Is {CARD} a valid card number? We're learning about the Luhn algorithm.",
    "Reach me on {PHONE}.",
    "My phone number is {PHONE}, my address is {ADDRESS}.",
    "Lecture notes by {PERSON}, week 4: sorting algorithms.",
]

NEGATIVE = [
    "The exam is on {DATE} at {TIME}; what should I revise first?",
    "I installed Python {VERSION} but pip still uses an older version.",
    "The book's ISBN is {ISBN}, is there a newer edition?",
    "Why does my script print {UUID} every time it runs?",
    "git says my commit is {SHA}; how do I revert it?",
    "The textbook costs {PRICE}, is there a free alternative?",
    "Explain how to convert the coordinates {LAT} to a map position.",
    "What is {INT} in binary?",
    "Is {BIG} divisible by 7?",
    "Why does {GROUPED} fail the Luhn check?",
    "Read pages {PAGES} of chapter 3 before Friday.",
    "Work out {MATH}",
    "What does the MAC address {HEX} tell me about the device?",
    "What does {LOOP} mean in networking?",
    "How did {FAMOUS} change science?",
    "Can you explain {CONCEPT} with an example?",
    "I'm reading about {FAMOUS} and {CONCEPT} for my essay.",
    "My flight to {PLACE} leaves in {YEAR}; what should I read about its history?",
    "The study was published in {YEAR} and cited {INT} times.",
    "Date formats confuse me: is {DMY} day-first or month-first?",
    "Will Python run faster if I use numpy arrays?",
    "May I ask about {CONCEPT}?",
    "Mark each answer as correct or incorrect.",
    "Grant Proposal Writing is a module I have next term.",
    "Why is {FAMOUS} famous?",
    "In C++ what does std::vector<int> v(10); do? And in Python x[::2]?",
    "The clock read 12:30:45 when the experiment started.",
    "Chapter 3 Key Points: entropy always increases in an isolated system.",
    "Order {INT} of the Fibonacci sequence grows like phi^n.",
    "The speed of light is 299792458 m/s; how was it measured?",
    "The barcode {EAN} on my lab kit: how do EAN check digits work?",
    "My phone's IMEI is {IMEI}; why does it also pass the Luhn check?",
    "Why is the routing number {ROUTING} nine digits long?",
    "Convert the Unix timestamp {EPOCH} to a date.",
    "Is the ZIP code {ZIP4} a ZIP+4 code?",
    "Explain why the constant {SCI} appears in this formula.",
    "Our package uses semantic versions like {VERSION}; is 1.2.3.4 allowed too?",
    "King Charles and the Norman Conquest: what changed for the Catholic Church?",
    "Compare Middle English and Modern English spelling.",
    "The sum 1000 + 2000 + 3000 is what? And 0.001 0.01 0.1?",
]


def main() -> None:
    rows = []
    for k in range(1400):
        group: list[str] = []
        text, entities = build(rng.choice(POSITIVE), group)
        rows.append({"id": f"p{k:04d}", "text": text, "entities": entities})
    for k in range(400):
        text, entities = build(rng.choice(NEGATIVE), [])
        rows.append({"id": f"n{k:04d}", "text": text, "entities": entities})
    with OUT.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows -> {OUT}")


if __name__ == "__main__":
    main()
