from django.urls import path

from . import views
from .language import switch_language
from .time_zone import browser_time_zone

app_name = "accounts"
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("close/", views.close, name="close"),
    path("language/", switch_language, name="language"),
    path("time-zone/", browser_time_zone, name="time-zone"),
]
