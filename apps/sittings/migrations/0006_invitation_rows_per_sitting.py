"""Give every sitting the invitation rows of the invitation that covered it, and mark the sittings that
ended early.

An invitation covers the sittings agreed together (a weekly series: one mail) and used to be recorded on
the first of them only. From now on each sitting has the rows of the people its invitation went to,
which decide who is sent its update or cancellation. Sittings agreed together were created one after
the other, the first of them first, so a sitting without rows takes those of the nearest sitting of its
proposal created before it that has some. A sitting whose end was moved to the moment it ended was ended
early by its table.
"""

from collections import defaultdict

from django.db import migrations
from django.db.models import F


def forwards(apps, schema_editor):
    Sitting = apps.get_model("sittings", "Sitting")
    SittingReminder = apps.get_model("sittings", "SittingReminder")
    Sitting.objects.filter(status="ended", ended_at=F("ends_at")).update(ended_early=True)
    invited = defaultdict(list)
    rows = SittingReminder.objects.filter(kind="invitation").values_list("sitting_id", "user_id", "sent_at")
    for sitting_id, user_id, sent_at in rows.iterator():
        invited[sitting_id].append((user_id, sent_at))
    new = []
    source, proposal = None, None
    sittings = Sitting.objects.filter(proposal__isnull=False).order_by("proposal_id", "pk")
    for pk, proposal_id in sittings.values_list("pk", "proposal_id").iterator():
        if proposal_id != proposal:
            source, proposal = None, proposal_id
        if pk in invited:
            source = pk
        elif source is not None:
            new += [
                SittingReminder(sitting_id=pk, user_id=user_id, kind="invitation", sent_at=sent_at)
                for user_id, sent_at in invited[source]
            ]
    SittingReminder.objects.bulk_create(new, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("sittings", "0005_calendar_changes"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
