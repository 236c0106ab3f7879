from django.urls import path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views

app_name = "push"
urlpatterns = [
    path("subscriptions/", views.subscription_create, name="subscribe"),
    path("subscriptions/<id:subscription_id>/", views.subscription_update, name="update"),
    path("subscriptions/<id:subscription_id>/delete/", views.subscription_delete, name="delete"),
]
