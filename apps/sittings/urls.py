from django.urls import include, path

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views

app_name = "sittings"
urlpatterns = [
    path(
        "games/<str:public_id>/sittings/",
        include(
            [
                path("", views.sitting_panel, name="panel"),
                path("propose/", views.sitting_propose, name="propose"),
                path("<id:proposal_id>/answer/", views.sitting_answer, name="answer"),
                path("play-now/", views.sitting_play_now, name="play-now"),
                path("end/", views.sitting_end, name="end"),
            ]
        ),
    ),
]
