"""The site admin's view of table talk: the one place a staff member reads and removes an abusive
message (``table_talk``); a filter finds the messages readers reported, each with its count of
reports, and every report is listed on its own."""

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from .models import TableMessage, TalkReport


class ReportedFilter(admin.SimpleListFilter):
    """Messages that somebody reported, or that nobody did."""

    title = "reported"
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "reported"), ("no", "not reported")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(report_count__gt=0)
        if self.value() == "no":
            return queryset.filter(report_count=0)
        return queryset


@admin.register(TableMessage)
class TableMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "seat", "user", "text", "reports")
    list_filter = (ReportedFilter,)
    search_fields = ("text", "user__username")
    raw_id_fields = ("game", "user")
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[TableMessage]:
        return super().get_queryset(request).annotate(report_count=Count("reports"))

    @admin.display(description="reports", ordering="report_count")
    def reports(self, message: Any) -> int:
        return int(message.report_count)


@admin.register(TalkReport)
class TalkReportAdmin(admin.ModelAdmin):
    """Each report: when, which message (and its game), and who reported it."""

    list_display = ("created_at", "message", "reporter")
    list_select_related = ("message__game", "reporter")
    search_fields = ("message__text", "reporter__username")
    raw_id_fields = ("message", "reporter")
    date_hierarchy = "created_at"
