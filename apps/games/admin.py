"""The site admin's view of table talk: the one place a staff member reads and removes an abusive
message (``table_talk``)."""

from django.contrib import admin

from .models import TableMessage


@admin.register(TableMessage)
class TableMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "seat", "user", "text")
    search_fields = ("text", "user__username")
    raw_id_fields = ("game", "user")
    date_hierarchy = "created_at"
