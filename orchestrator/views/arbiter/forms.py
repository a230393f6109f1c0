"""The console's controls and forms: what a button sends, what a form asks for."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from orchestrator.core.commands import Command
from playoff_formats.speech import tr

__all__ = [
    "Caution",
    "ClockControl",
    "Control",
    "Fill",
    "Form",
    "FormAction",
    "FormField",
    "Option",
    "Wait",
    "reason_field",
]


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- controls


class Wait(_View):
    """A refusal that ends at a known instant, for the console to count down to."""

    until_ms: int = Field(description="When the refusal ends, in server ms")
    text: str = Field(
        description="The refusal, with {left} where the time left goes (the console "
        "writes it as a countdown, 4:59)"
    )


class Control(_View):
    """A button: the command it sends, and whether the service accepts it now."""

    id: str = Field(
        description="One decision: controls sharing an id wait together while one's "
        "command is pending (e.g. every result of one game)"
    )
    name: str = Field(description="What the control is, stable from view to view")
    label: str = Field(
        description="Its text; a name in braces is the payload's field of that name"
    )
    detail: str | None = Field(default=None, description="A second line of text")
    summary: str = Field(
        description="The command in words, for the list of commands sent; a name in "
        "braces is the payload's field of that name"
    )
    command: Command = Field(description="The exact payload to send")
    enabled: bool
    refusal: str | None = Field(default=None, description="Why the service refuses it now")
    primary: bool = False
    confirm: str | None = Field(
        default=None,
        description="Sent only once the arbiter confirms it, after reading this (what it "
        "records and decides, or the preference it does not keep)",
    )
    wait: Wait | None = Field(
        default=None,
        description="A refusal that holds until an instant (a rest): the refusal in words "
        "with the time left counting down",
    )


class ClockControl(Control):
    """A control that acts on a running clock and follows it between views."""

    clock: str = Field(description='The clock it follows: its key in "clocks" ("m:g")')
    requires: dict[str, str] = Field(
        description="The values the clock must show for the command to apply"
    )
    fill: dict[str, str] = Field(
        default_factory=dict,
        description="Payload fields taken from the clock as it stands: field -> clock field",
    )


class Caution(_View):
    """What choosing an option entails, for the arbiter to read before sending."""

    text: str
    items: tuple[str, ...] = ()


class Option(_View):
    """A choice in a select or a set of radio buttons."""

    value: str = Field(description="The choice's value in the form")
    label: str
    sets: dict[str, JsonValue] = Field(description="The payload fields this choice sets")
    name: str | None = Field(default=None, description="What the choice is (radio buttons)")
    at: datetime | None = Field(
        default=None, description="An instant to show beside the label, in the hall's time"
    )
    caution: Caution | None = Field(
        default=None, description="Shown while this choice is made: what it entails"
    )


class FormField(_View):
    """One input of a form.

    A ``select`` or ``radio`` field sets the payload fields of the chosen option;
    a ``checkbox`` puts true (checked) or false into the payload field ``name``;
    any other puts its value into the payload field ``name`` (a ``datetime`` as
    an ISO 8601 instant; an empty optional field as null).
    """

    name: str
    label: str
    input: Literal["select", "radio", "number", "text", "datetime", "checkbox"]
    options: tuple[Option, ...] = ()
    required: bool = True
    value: str | None = Field(default=None, description="The value shown at first")
    min: int | None = None
    max: int | None = None
    step: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    placeholder: str | None = Field(
        default=None,
        description="A hint in an empty field; for a select, a first entry that is no "
        "choice, so that the arbiter has to choose",
    )
    clear_after: bool = Field(
        default=False, description="Emptied once the command is accepted (reasons, scores)"
    )
    shown_when: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="Shown (and then required, if required) only while each named field "
        "has one of these values; hidden, it is sent as false or left out",
    )
    test_id: str


class FormAction(_View):
    """A submit button: the fixed part of the payload, completed by the fields."""

    name: str
    label: str
    summary: str = Field(
        description="The command in words; a name in braces is the payload's field"
    )
    command: dict[str, JsonValue]
    scale: dict[str, int] = Field(
        default_factory=dict,
        description="Number fields sent multiplied by this (seconds typed, ms sent)",
    )
    primary: bool = False
    confirm: str | None = Field(
        default=None,
        description="Sent only once the arbiter confirms it, after reading this (what "
        "cannot be undone); a field's name in braces is what was chosen or typed in it, "
        "as the form shows it",
    )


class Form(_View):
    """A command the arbiter completes before sending it."""

    id: str = Field(description="Pending commands of one form make it wait")
    name: str
    title: str
    hint: str | None = None
    fields: tuple[FormField, ...]
    actions: tuple[FormAction, ...]
    enabled: bool
    refusal: str | None = None
    open: bool = Field(default=False, description="Shown open (it needs the arbiter now)")
    clock: str | None = Field(
        default=None,
        description="The clock its command acts on, when that is all it changes: the clock "
        "frame then shows the change, and no new view follows",
    )
    role: Literal["chief"] | None = Field(
        default=None,
        description="Shown only to consoles of this role (the welcome frame's): the service "
        "refuses the command from any other",
    )


class Fill(_View):
    """Fill a form in for the arbiter to complete (a proposal to apply)."""

    label: str
    form: str = Field(description="The form's name")
    values: dict[str, str] = Field(description="Field name -> value to put in it")


# --------------------------------------------------------------------------- matches



def reason_field(test_id: str, placeholder: str | None = None) -> FormField:
    """The reason every arbiter's override needs (logged with the change)."""
    return FormField(
        name="reason", label=tr("Reason (required)"), input="text", min_length=3, max_length=300,
        placeholder=placeholder, clear_after=True, test_id=test_id,
    )
