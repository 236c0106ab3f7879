"""/api/: the JSON API under v1/, its OpenAPI schema and documentation, and the token pages."""

from django.urls import URLPattern, path, re_path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.views import APIView

from baogame import converters  # noqa: F401 - registers <id:…>

from . import views_account as account
from . import views_calendar as calendar
from . import views_clock as clock
from . import views_estimate as estimate
from . import views_games as games
from . import views_league_divisions as league_divisions
from . import views_league_manage as manage
from . import views_leagues as leagues
from . import views_lobby as lobby
from . import views_orders as orders
from . import views_players as players
from . import views_root as root
from . import views_sittings as sittings
from . import views_talk as talk
from . import web
from .views_errors import not_found

app_name = "api"

LEAGUE = "leagues/<slug:slug>/"  # below v1/
SEASON = f"{LEAGUE}seasons/<id:season_id>/"
MEMBER = f"{LEAGUE}members/<id:membership_id>/"
OFFER = f"{LEAGUE}offers/<id:offer_id>/"


def _routes(prefix: str, table: list[tuple[str, type[APIView], str]]) -> list[URLPattern]:
    """One ``path`` a row of ``(route below prefix, API class, name)``, in the table's order."""
    return [path(f"{prefix}{route}", view.as_view(), name=name) for route, view, name in table]


urlpatterns = [
    *_routes(
        "v1/",
        [
            # A move and the read before it first: nearly every request is one of them.
            ("games/<id:game_id>/actions/", games.MoveSubmitApi, "game-act"),
            ("games/<id:game_id>/legal/", games.GameLegalApi, "game-legal"),
            ("", root.ApiRootApi, "root"),
            ("me/", account.MeApi, "me"),
            ("me/close/", account.MeCloseApi, "me-close"),
            ("me/notifications/", account.NotificationPreferencesApi, "notifications"),
            ("me/vacation/", clock.VacationApi, "vacation"),
            ("me/calendar/", calendar.CalendarApi, "calendar"),
            ("tokens/", account.TokenListApi, "token-list"),
            ("tokens/<id:token_id>/", account.TokenRevokeApi, "token-revoke"),
            ("bots/", account.BotAccountListApi, "bot-list"),
            ("bots/<id:bot_id>/tokens/", account.BotTokenCreateApi, "bot-token-create"),
            ("estimate/", estimate.EstimateApi, "estimate"),
            ("games/", games.GameListApi, "game-list"),
            ("games/join/", games.GameJoinApi, "game-join"),
            ("games/watch/", games.GameWatchApi, "game-watch"),
            ("games/open/", lobby.OpenTableListApi, "game-open-tables"),
            ("games/<id:game_id>/", games.GameDetailApi, "game-detail"),
            ("games/<id:game_id>/history/", games.GameHistoryApi, "game-history"),
            ("games/<id:game_id>/record/", games.GameRecordApi, "game-record"),
            ("games/<id:game_id>/invite/", games.GameInviteApi, "game-invite"),
            ("games/<id:game_id>/bots/", games.GameBotAddApi, "game-bots"),
            ("games/<id:game_id>/take-seat/", lobby.OpenTableJoinApi, "game-take-seat"),
            ("games/<id:game_id>/close-table/", lobby.OpenTableCloseApi, "game-close-table"),
            ("games/<id:game_id>/cancel/", lobby.GameCancelApi, "game-cancel"),
            ("games/<id:game_id>/seat/", clock.MySeatApi, "game-my-seat"),
            ("games/<id:game_id>/seat/take-back/", clock.SeatTakeBackApi, "game-take-back"),
            ("games/<id:game_id>/messages/", talk.GameTalkApi, "game-messages"),
            (
                "games/<id:game_id>/messages/<id:message_id>/report/",
                talk.TalkReportApi,
                "game-message-report",
            ),
            ("games/<id:game_id>/seat/hand-over/", clock.SeatHandOverApi, "game-hand-over"),
            ("games/<id:game_id>/orders/", orders.MyOrdersApi, "game-my-orders"),
            ("games/<id:game_id>/sittings/", sittings.SittingListApi, "game-sittings"),
            (
                "games/<id:game_id>/sittings/<id:proposal_id>/answer/",
                sittings.SittingAnswerApi,
                "game-sitting-answer",
            ),
            ("players/<str:username>/", players.PlayerDetailApi, "player-detail"),
            ("leagues/", leagues.LeagueListApi, "league-list"),
            (LEAGUE, leagues.LeagueDetailApi, "league-detail"),
            (f"{SEASON}standings/", leagues.SeasonStandingsApi, "season-standings"),
            (f"{SEASON}exports/<str:kind>/", leagues.SeasonExportApi, "season-export"),
            (f"{SEASON}rounds/", leagues.RoundListApi, "season-rounds"),
            (f"{SEASON}ratings/", leagues.SeasonRatingHistoryApi, "season-ratings"),
            (f"{LEAGUE}seasons/", manage.SeasonCreateApi, "season-create"),
            (f"{SEASON}divisions/", league_divisions.SeasonDivisionsApi, "season-divisions"),
            (f"{SEASON}divisions/move/", league_divisions.SeasonDivisionMoveApi, "season-division-move"),
            (
                f"{SEASON}divisions/confirm/",
                league_divisions.SeasonDivisionsConfirmApi,
                "season-divisions-confirm",
            ),
            (f"{LEAGUE}join/", leagues.LeagueJoinApi, "league-join"),
            (f"{LEAGUE}withdraw/", leagues.LeagueWithdrawApi, "league-withdraw"),
            (f"{LEAGUE}audit-log/", leagues.LeagueAuditLogApi, "league-audit-log"),
            (f"{LEAGUE}invite/", manage.LeagueInviteApi, "league-invite"),
            (f"{LEAGUE}email/", manage.LeagueEmailApi, "league-email"),
            (f"{LEAGUE}members/", manage.LeagueMemberListApi, "league-members"),
            (f"{MEMBER}approve/", manage.MembershipApproveApi, "league-member-approve"),
            (f"{MEMBER}decline/", manage.MembershipDeclineApi, "league-member-decline"),
            (f"{MEMBER}organiser/", manage.MembershipOrganiserApi, "league-member-organiser"),
            (f"{LEAGUE}step-down/", leagues.LeagueStepDownApi, "league-step-down"),
            (f"{LEAGUE}games/", manage.LeagueOpenGameListApi, "league-games"),
            (f"{LEAGUE}offers/", manage.SubstituteOfferListApi, "league-offers"),
            (f"{OFFER}accept/", manage.SubstituteOfferAcceptApi, "league-offer-accept"),
            (f"{OFFER}decline/", manage.SubstituteOfferDeclineApi, "league-offer-decline"),
            *[
                (f"{LEAGUE}games/<id:game_id>/{action}/", view, f"league-game-{action}")
                for action, view in manage.GAME_TOOLS.items()
            ],
        ],
    ),
    re_path(r"^v1/", not_found),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", web.docs, name="docs"),
    path("tokens/", web.tokens, name="tokens"),
    path("tokens/<id:token_id>/revoke/", web.token_revoke, name="token-revoke-page"),
    path("tokens/bots/", web.bot_create, name="bot-create-page"),
    path("tokens/bots/<id:bot_id>/token/", web.bot_token_create, name="bot-token-page"),
]
