// `/methods/<slug>`: a method, where it is filed, its strongest treatment, and each model's
// treatment of it with the evidence.
import { BrowserMethodDocument } from "../../../clients/typescript/src/gql/graphql";
import { AdoptionChart } from "../adoption-chart";
import { answered } from "../api";
import { useQuery } from "../query";
import { href } from "../router";
import { ApiProblem, Badge, Breadcrumb, ExternalLink, Heading, Loading, NotFound, plural, useTitle } from "../ui";

export function MethodPage({ slug }: { slug: string }) {
  const loaded = useQuery(BrowserMethodDocument, { slug });
  const method = loaded.state === "done" ? loaded.data.method : null;
  useTitle(method ? method.name : loaded.state === "loading" ? null : `No method ${slug}`);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "error") return <ApiProblem message={loaded.message} />;
  if (!method) return <NotFound kind="method" slug={slug} />;
  const { node } = method;
  return (
    <>
      <Breadcrumb trail={[...node.ancestors, { name: node.name, slugPath: node.slugPath }]} current={method.name} />
      <article class="method">
        <p class="kicker">method</p>
        <Heading>{method.name}</Heading>
        <p class="lead">
          Filed at <a href={href.node(node.slugPath)}>{node.path}</a>.{" "}
          {method.strongest ? (
            <>
              Treated by {plural(method.modelCount, "model")}; strongest: <Badge strength={method.strongest} />
            </>
          ) : (
            "No model's documents describe it yet."
          )}
        </p>
        {method.description ? <p class="description">{method.description}</p> : null}
        {method.aliases.length ? <p>Also called: {method.aliases.join("; ")}.</p> : null}
        <section aria-labelledby="treatments">
          <h2 id="treatments">Treatments by model</h2>
          {method.treatments.length ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">treatment</th>
                  <th scope="col">evidence</th>
                </tr>
              </thead>
              <tbody>
                {method.treatments.map((treatment) => (
                  <tr key={treatment.id}>
                    <th scope="row">
                      <a href={href.model(treatment.model.slug)}>{treatment.model.name}</a>
                      {treatment.model.releaseDate ? (
                        <span class="count"> {treatment.model.releaseDate}</span>
                      ) : null}
                    </th>
                    <td>
                      <Badge strength={treatment.strength} />
                    </td>
                    <td>
                      {treatment.evidence.map((evidence) => (
                        <figure key={evidence.id} class="quote">
                          {evidence.quote ? <blockquote>{evidence.quote}</blockquote> : null}
                          <figcaption>
                            <Badge strength={evidence.strength} />{" "}
                            {evidence.source ? (
                              <ExternalLink url={evidence.source.url}>{evidence.source.title}</ExternalLink>
                            ) : (
                              "no source recorded"
                            )}
                            {evidence.locator ? `, ${evidence.locator}` : ""}
                          </figcaption>
                        </figure>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No model's documents describe this method.</p>
          )}
        </section>
        <AdoptionChart points={answered(method.adoption, "method.adoption")} subject="this method" />
      </article>
    </>
  );
}
