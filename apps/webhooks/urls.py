from django.urls import path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views

app_name = "webhooks"
urlpatterns = [
    path("", views.webhook_list, name="list"),
    path("<id:endpoint_id>/delete/", views.webhook_delete, name="delete"),
    path("<id:endpoint_id>/enable/", views.webhook_enable, name="enable"),
]
