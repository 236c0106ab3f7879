from django.urls import path

from . import views
from .language import switch_language

app_name = "accounts"
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("language/", switch_language, name="language"),
]
