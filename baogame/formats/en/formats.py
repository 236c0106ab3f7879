"""English date formats of the site's pages (Django's own for every other language): days as people
write them in mail (``5 Dec 2026``) and times on the 24-hour clock (``2026-12-05 14:03``)."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
