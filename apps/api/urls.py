"""/api/: the JSON API under v1/, its OpenAPI schema and documentation, and the token pages."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views_account as account
from . import views_calendar as calendar
from . import views_clock as clock
from . import views_estimate as estimate
from . import views_games as games
from . import views_league_divisions as league_divisions
from . import views_league_manage as manage
from . import views_leagues as leagues
from . import views_orders as orders
from . import views_sittings as sittings
from . import web
from .views_errors import not_found

app_name = "api"

urlpatterns = [
    # A move and the read before it first: nearly every request is one of them.
    path("v1/games/<id:game_id>/actions/", games.MoveSubmitApi.as_view(), name="game-act"),
    path("v1/games/<id:game_id>/legal/", games.GameLegalApi.as_view(), name="game-legal"),
    path("v1/me/", account.MeApi.as_view(), name="me"),
    path("v1/me/notifications/", account.NotificationPreferencesApi.as_view(), name="notifications"),
    path("v1/me/vacation/", clock.VacationApi.as_view(), name="vacation"),
    path("v1/me/calendar/", calendar.CalendarApi.as_view(), name="calendar"),
    path("v1/tokens/", account.TokenListApi.as_view(), name="token-list"),
    path("v1/tokens/<id:token_id>/", account.TokenRevokeApi.as_view(), name="token-revoke"),
    path("v1/bots/", account.BotAccountListApi.as_view(), name="bot-list"),
    path("v1/bots/<id:bot_id>/tokens/", account.BotTokenCreateApi.as_view(), name="bot-token-create"),
    path("v1/estimate/", estimate.EstimateApi.as_view(), name="estimate"),
    path("v1/games/", games.GameListApi.as_view(), name="game-list"),
    path("v1/games/join/", games.GameJoinApi.as_view(), name="game-join"),
    path("v1/games/watch/", games.GameWatchApi.as_view(), name="game-watch"),
    path("v1/games/<id:game_id>/", games.GameDetailApi.as_view(), name="game-detail"),
    path("v1/games/<id:game_id>/history/", games.GameHistoryApi.as_view(), name="game-history"),
    path("v1/games/<id:game_id>/record/", games.GameRecordApi.as_view(), name="game-record"),
    path("v1/games/<id:game_id>/invite/", games.GameInviteApi.as_view(), name="game-invite"),
    path("v1/games/<id:game_id>/bots/", games.GameBotAddApi.as_view(), name="game-bots"),
    path("v1/games/<id:game_id>/seat/", clock.MySeatApi.as_view(), name="game-my-seat"),
    path("v1/games/<id:game_id>/seat/take-back/", clock.SeatTakeBackApi.as_view(), name="game-take-back"),
    path("v1/games/<id:game_id>/orders/", orders.MyOrdersApi.as_view(), name="game-my-orders"),
    path("v1/games/<id:game_id>/sittings/", sittings.SittingListApi.as_view(), name="game-sittings"),
    path(
        "v1/games/<id:game_id>/sittings/<int:proposal_id>/answer/",
        sittings.SittingAnswerApi.as_view(),
        name="game-sitting-answer",
    ),
    path("v1/leagues/", leagues.LeagueListApi.as_view(), name="league-list"),
    path("v1/leagues/<slug:slug>/", leagues.LeagueDetailApi.as_view(), name="league-detail"),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/standings/",
        leagues.SeasonStandingsApi.as_view(),
        name="season-standings",
    ),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/exports/<str:kind>/",
        leagues.SeasonExportApi.as_view(),
        name="season-export",
    ),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/rounds/",
        leagues.RoundListApi.as_view(),
        name="season-rounds",
    ),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/ratings/",
        leagues.SeasonRatingHistoryApi.as_view(),
        name="season-ratings",
    ),
    path("v1/leagues/<slug:slug>/seasons/", manage.SeasonCreateApi.as_view(), name="season-create"),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/divisions/",
        league_divisions.SeasonDivisionsApi.as_view(),
        name="season-divisions",
    ),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/divisions/move/",
        league_divisions.SeasonDivisionMoveApi.as_view(),
        name="season-division-move",
    ),
    path(
        "v1/leagues/<slug:slug>/seasons/<id:season_id>/divisions/confirm/",
        league_divisions.SeasonDivisionsConfirmApi.as_view(),
        name="season-divisions-confirm",
    ),
    path("v1/leagues/<slug:slug>/join/", leagues.LeagueJoinApi.as_view(), name="league-join"),
    path("v1/leagues/<slug:slug>/withdraw/", leagues.LeagueWithdrawApi.as_view(), name="league-withdraw"),
    path("v1/leagues/<slug:slug>/audit-log/", leagues.LeagueAuditLogApi.as_view(), name="league-audit-log"),
    path("v1/leagues/<slug:slug>/invite/", manage.LeagueInviteApi.as_view(), name="league-invite"),
    path("v1/leagues/<slug:slug>/email/", manage.LeagueEmailApi.as_view(), name="league-email"),
    path("v1/leagues/<slug:slug>/members/", manage.LeagueMemberListApi.as_view(), name="league-members"),
    path(
        "v1/leagues/<slug:slug>/members/<id:membership_id>/approve/",
        manage.MembershipApproveApi.as_view(),
        name="league-member-approve",
    ),
    path(
        "v1/leagues/<slug:slug>/members/<id:membership_id>/decline/",
        manage.MembershipDeclineApi.as_view(),
        name="league-member-decline",
    ),
    path("v1/leagues/<slug:slug>/games/", manage.LeagueOpenGameListApi.as_view(), name="league-games"),
    path("v1/leagues/<slug:slug>/offers/", manage.SubstituteOfferListApi.as_view(), name="league-offers"),
    path(
        "v1/leagues/<slug:slug>/offers/<id:offer_id>/accept/",
        manage.SubstituteOfferAcceptApi.as_view(),
        name="league-offer-accept",
    ),
    path(
        "v1/leagues/<slug:slug>/offers/<id:offer_id>/decline/",
        manage.SubstituteOfferDeclineApi.as_view(),
        name="league-offer-decline",
    ),
    *[
        path(
            f"v1/leagues/<slug:slug>/games/<id:game_id>/{action}/",
            view.as_view(),
            name=f"league-game-{action}",
        )
        for action, view in [
            ("extend", manage.GameDeadlineExtendApi),
            ("pause", manage.GamePauseApi),
            ("resume", manage.GameResumeApi),
            ("substitute", manage.SeatSubstituteApi),
            ("bot-takeover", manage.SeatBotTakeoverApi),
            ("adjudicate", manage.GameAdjudicateApi),
            ("result-confirm", manage.ResultConfirmApi),
            ("result-reopen", manage.ResultReopenApi),
            ("result-adjudicate", manage.ResultAdjudicateApi),
            ("abort", manage.GameAbortApi),
        ]
    ],
    re_path(r"^v1/", not_found),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", web.docs, name="docs"),
    path("tokens/", web.tokens, name="tokens"),
    path("tokens/<id:token_id>/revoke/", web.token_revoke, name="token-revoke-page"),
    path("tokens/bots/", web.bot_create, name="bot-create-page"),
    path("tokens/bots/<id:bot_id>/token/", web.bot_token_create, name="bot-token-page"),
]
