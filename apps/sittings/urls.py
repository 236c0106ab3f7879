from django.urls import path

from . import views

app_name = "sittings"
urlpatterns = [
    path("games/<str:public_id>/sittings/", views.sitting_panel, name="panel"),
    path("games/<str:public_id>/sittings/propose/", views.sitting_propose, name="propose"),
    path("games/<str:public_id>/sittings/<int:proposal_id>/answer/", views.sitting_answer, name="answer"),
    path("games/<str:public_id>/sittings/play-now/", views.sitting_play_now, name="play-now"),
    path("games/<str:public_id>/sittings/end/", views.sitting_end, name="end"),
]
