"""The page that checks a PDF against the sealed IRERs (``reports.seal``): a user drops a
file and is told whether it is an approved IRER of this system as sealed at approval,
which case and revision (only a case they may see), and, for a file that matches none,
what its metadata says it is.

Any logged-in user may use it (LoginRequiredMiddleware sends anyone else to the login
page). The upload is limited to :data:`~.reports.seal.CHECK_MAX_BYTES` while it is read:
the view adds a size-limiting upload handler before the CSRF check parses the request,
the pattern Django documents for changing upload handlers (``csrf_exempt`` outside,
``csrf_protect`` inside), so the CSRF check still runs on every POST.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from reviewer.http import AuthenticatedHttpRequest

from .reports.seal import CHECK_MAX_BYTES, check_pdf

LIMIT_MB = CHECK_MAX_BYTES // (1024 * 1024)
PDF_REQUIRED = "Choose the PDF file to check."
PDF_TOO_LARGE = f"The file is larger than {LIMIT_MB} MB; an IRER is far smaller."
PDF_NOT_PDF = "The file is not a PDF (a PDF file starts with %PDF-)."
PDF_EMPTY = "The file is empty."


class SizeLimit(FileUploadHandler):
    """Stops reading an uploaded file past ``limit`` bytes, remembering that it did."""

    def __init__(self, request: HttpRequest | None = None, limit: int | None = None) -> None:
        super().__init__(request)
        self.limit = CHECK_MAX_BYTES if limit is None else limit
        self.received = 0
        self.exceeded = False

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            self.exceeded = True
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


class SealCheckForm(forms.Form):
    pdf = forms.FileField(
        label="PDF file", help_text=f"The IRER PDF to check, at most {LIMIT_MB} MB. It is read, not stored.",
        error_messages={"required": PDF_REQUIRED, "empty": PDF_EMPTY},
    )

    def __init__(self, *args: Any, too_large: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.too_large = too_large
        if too_large:  # what the upload handler stopped reading is not there to be "required"
            self.fields["pdf"].required = False

    def clean_pdf(self) -> bytes:
        if self.too_large:
            raise forms.ValidationError(PDF_TOO_LARGE)
        upload = self.cleaned_data["pdf"]
        if upload.size > CHECK_MAX_BYTES:
            raise forms.ValidationError(PDF_TOO_LARGE)
        data: bytes = upload.read()  # the upload is read in binary mode
        if not data.startswith(b"%PDF-"):
            raise forms.ValidationError(PDF_NOT_PDF)
        return data


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def irer_verify(request: AuthenticatedHttpRequest) -> HttpResponse:
    limit = SizeLimit(request)
    request.upload_handlers.insert(0, limit)
    return _irer_verify(request, limit)


@csrf_protect
def _irer_verify(request: AuthenticatedHttpRequest, limit: SizeLimit) -> HttpResponse:
    check = None
    if request.method == "POST":
        form = SealCheckForm(request.POST, request.FILES, too_large=limit.exceeded)
        if form.is_valid():
            check = check_pdf(data=form.cleaned_data["pdf"], user=request.user)
    else:
        form = SealCheckForm()
    status = 400 if form.errors else 200
    return render(request, "reports/verify.html", {"form": form, "check": check}, status=status)
