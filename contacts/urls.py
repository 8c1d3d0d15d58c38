from django.urls import path

from . import views

urlpatterns = [
    path("cases/<int:pk>/contacts/new/", views.contact_create, name="contact-create"),
    path("cases/<int:pk>/contacts.pdf", views.case_contacts_pdf, name="case-contacts-pdf"),
    path("contacts/<int:pk>/", views.contact_detail, name="contact-detail"),
    path("contacts/<int:pk>/edit/", views.contact_edit, name="contact-edit"),
    path("contacts/<int:pk>/report.pdf", views.contact_pdf, name="contact-pdf"),
    path("assessments/<int:pk>/irer-with-contacts.pdf", views.irer_with_contacts_download, name="irer-contacts-download"),
]
