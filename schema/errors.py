"""Errors a client can cause, each with a machine-readable ``extensions.code``."""

from graphql import GraphQLError


class ClientError(GraphQLError):
    code = "BAD_USER_INPUT"

    def __init__(self, message: str) -> None:
        super().__init__(message, extensions={"code": self.code})


class BadUserInputError(ClientError):
    code = "BAD_USER_INPUT"
