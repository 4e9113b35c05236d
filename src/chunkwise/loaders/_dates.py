"""Dates in document metadata (``created``, ``modified``): one format for every loader.

A moment with a known time zone is ISO 8601 in UTC, to the second:
``2014-06-10T11:09:00+00:00``. A moment without a zone stays as written, without one
(``2024-01-02T10:00:00``: the zone is not known). A date alone is ``2024-01-02``; a year
or a month alone ``2024``, ``2024-06`` (nothing invented). OOXML core properties are UTC by
their specification (W3CDTF with ``Z``; openpyxl and python-pptx drop the zone), so their
naive datetimes are UTC.

Read: ``datetime``/``date`` values; W3CDTF and ISO 8601 text (``2003-12-31T10:14:55-08:00``,
``2024-01-02 10:00Z``, ``20240102T100000Z``); PDF dates (``D:20230120164927+01'00'``);
RFC 2822 dates of HTTP and e-mail (``Tue, 10 Jun 2014 11:09:00 GMT``). Anything else is
None (the loader then leaves the key out rather than keep text no program can compare):
a date that does not exist, a time zone a day or more from UTC, a moment that UTC would
move past year 1 or 9999.
"""

from __future__ import annotations

import datetime
import email.utils
import re
from typing import Any

__all__ = ["core_dates", "front_matter_dates", "iso_date"]

_ISO = re.compile(
    r"^(?:D:)?(\d{4})(?:-?(\d{2})(?:-?(\d{2})"
    r"(?:[T ]?(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?"
    r"\s*(Z|z|[+-]\d{2}(?:'?:?\d{2}'?)?)?)?)?)?$"
)


def _utc(moment: datetime.datetime) -> str | None:
    try:
        return moment.astimezone(datetime.timezone.utc).replace(microsecond=0).isoformat()
    except (OverflowError, ValueError):  # year 1 or 9999 moved past the calendar's ends
        return None


def iso_date(value: Any, *, naive_is_utc: bool = False) -> str | None:
    """``value`` in the one date format of document metadata (see the module), or None.

    Args:
        value: a ``datetime``, ``date`` or text.
        naive_is_utc: a moment without a zone is UTC (OOXML core properties).

    Example:
        >>> iso_date("2003-12-31T10:14:55-08:00"), iso_date("D:20230120164927+01'00'")
        ('2003-12-31T18:14:55+00:00', '2023-01-20T15:49:27+00:00')
        >>> iso_date("2024-01-02"), iso_date("2014-06"), iso_date("2024-01-02 10:00"), iso_date("June")
        ('2024-01-02', '2014-06', '2024-01-02T10:00:00', None)
        >>> iso_date("Tue, 10 Jun 2014 11:09:00 GMT")
        '2014-06-10T11:09:00+00:00'
    """
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            if naive_is_utc:
                return value.replace(tzinfo=datetime.timezone.utc, microsecond=0).isoformat()
            return value.replace(microsecond=0).isoformat()
        return _utc(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    text = value.strip()
    m = _ISO.match(text)
    if m is None:
        try:
            moment = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        return iso_date(moment, naive_is_utc=naive_is_utc) if moment else None
    y, mo, d, h, mi, sec, _frac, zone = m.groups()
    try:
        if h is None:
            datetime.date(int(y), int(mo or 1), int(d or 1))  # a real date
            return "-".join(p for p in (y, mo, d) if p)
        moment = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi or 0), int(sec or 0))
    except ValueError:
        return None
    if zone:
        if zone in "Zz":
            tz = datetime.timezone.utc
        else:
            digits = re.sub(r"\D", "", zone)
            minutes = int(digits[:2]) * 60 + int(digits[2:4] or 0)
            if minutes >= 24 * 60:  # no time zone is a day or more from UTC
                return None
            tz = datetime.timezone(datetime.timedelta(minutes=minutes if zone[0] == "+" else -minutes))
        return _utc(moment.replace(tzinfo=tz))
    return iso_date(moment, naive_is_utc=naive_is_utc)


def core_dates(props: Any, meta: dict[str, Any], keys: tuple[str, ...] = ("created", "modified")) -> None:
    """The ``created``/``modified`` core properties of an OOXML file (openpyxl's,
    python-pptx's) into ``meta`` in the one format (UTC), without replacing what the caller
    gave."""
    for key in keys:
        try:
            value = iso_date(getattr(props, key, None), naive_is_utc=True)
        except Exception:  # noqa: BLE001 - a malformed property is left out, not fatal
            continue
        if value:
            meta.setdefault(key, value)


_CREATED = ("created", "date", "published", "pubdate", "date_created", "publishdate")
_MODIFIED = ("modified", "updated", "lastmod", "last_modified", "date_modified", "last-modified")


def front_matter_dates(front: Any, meta: dict[str, Any]) -> None:
    """``created``/``modified`` from a front matter's date keys (``date``, ``created``,
    ``published``; ``modified``, ``updated``, ``lastmod``), in the one format; keys
    compared without case; a value that is not a date is left out."""
    if not isinstance(front, dict):
        return
    lower = {str(k).lower(): v for k, v in front.items()}
    for target, names in (("created", _CREATED), ("modified", _MODIFIED)):
        for name in names:
            value = iso_date(lower.get(name)) if name in lower else None
            if value:
                meta.setdefault(target, value)
                break
