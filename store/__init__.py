"""The data layer: tables, the read model, the search index, the reader and every SQL
statement the API runs. It knows nothing of GraphQL or HTTP."""
