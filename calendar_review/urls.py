from django.urls import path

from . import views

urlpatterns = [
    path("due/", views.due_list, name="due-list"),
    path("cases/<int:pk>/calendar/", views.calendar_edit, name="calendar-edit"),
    path("cases/<int:pk>/calendar/suspensions/new/", views.suspension_create, name="suspension-create"),
    path("cases/<int:pk>/calendar/extensions/new/", views.extension_create, name="extension-create"),
    path("cases/<int:pk>/assign/", views.engineer_assign, name="engineer-assign"),
    path("cases/<int:pk>/calendar/suspensions/end/", views.suspension_end, name="suspension-end"),
]
