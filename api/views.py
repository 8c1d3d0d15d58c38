"""The API tokens page: the owner makes a token (shown once), lists theirs, revokes one.
A page of the application (session login, CSRF), not part of the API."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from assessments.forms.binding import add_service_errors
from reviewer.http import AuthenticatedHttpRequest

from . import tokens
from .forms import TokenForm


@never_cache
@require_http_methods(["GET", "POST"])
def token_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TokenForm(request.POST if request.method == "POST" else None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            made = tokens.token_create(owner=request.user, name=form.cleaned_data["name"],
                                       days=form.cleaned_data["days"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            new_token, form = made, TokenForm()
    for name, field in form.fields.items():
        if form.is_bound and name in form.errors:
            field.widget.attrs.update({"aria-invalid": "true",
                                       "aria-describedby": f"id_{name}_helptext id_{name}_error"})
    return render(request, "api/tokens.html", {
        "form": form, "new_token": new_token, "tokens": tokens.tokens_of(user=request.user),
        "rate_limit": settings.API_RATE_LIMIT_PER_MINUTE,
    }, status=400 if form.errors else 200)


@require_POST
def token_revoke(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Revoke the posted ``token`` (an id) of the user's own."""
    pk = request.POST.get("token", "")
    if not (pk.isascii() and pk.isdigit() and len(pk) < 19):
        raise Http404("No such token.")
    token = tokens.token_get_own(user=request.user, pk=int(pk))
    try:
        tokens.token_revoke(token=token, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Token “{token.name}” revoked: it is refused from now on.")
    return redirect("api-tokens")
