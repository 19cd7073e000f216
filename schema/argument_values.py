"""A value written in a field's arguments that its type cannot take (an unknown enum value,
an `Int` beyond 32 bits, a string where a number goes) is refused on that field alone, as
every other refused argument is (docs/api-guide.md, "Errors stay on their field").

GraphQL's "Values of Correct Type" validation would refuse the whole document for it.
Here that rule skips the values inside a field's arguments, and graphql-core's execution
checks them instead as it runs the field: its own check ("a runtime check to ensure
execution does not continue with an invalid argument value"), with the same message,
raised as the field's error, so that the field is null and its siblings are answered
(schema.errors codes it BAD_USER_INPUT). Values elsewhere (a directive's argument such
as `@include(if:)`, a variable's default) are still validated as the rule says, and a
variable's value in the request's `variables` is refused by the specification's variable
coercion before anything runs."""

from collections.abc import Iterator

from graphql import GraphQLError, ValuesOfCorrectTypeRule
from strawberry.extensions import SchemaExtension


class ValuesOfCorrectTypeOutsideFieldArguments(ValuesOfCorrectTypeRule):
    """The specification's rule, for every value but those in a field's arguments."""

    def report_error(self, error: GraphQLError) -> None:
        in_field_argument = (
            self.context.get_argument() is not None and self.context.get_directive() is None
        )
        if not in_field_argument:
            super().report_error(error)


class ArgumentValuesOnTheirField(SchemaExtension):
    """Validates with ValuesOfCorrectTypeOutsideFieldArguments in place of the
    specification's rule (the rules are the execution context's, which extensions such as
    Strawberry's AddValidationRules and DisableValidation set)."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        context.validation_rules = tuple(
            ValuesOfCorrectTypeOutsideFieldArguments if rule is ValuesOfCorrectTypeRule else rule
            for rule in context.validation_rules
        )
        yield
