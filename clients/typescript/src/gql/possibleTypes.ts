
      export type PossibleTypesResultData = {
  "possibleTypes": {
    "Entity": [
      "Evidence",
      "Method",
      "MethodTreatment",
      "Model",
      "ModelTreatment",
      "Node",
      "Release",
      "Source"
    ],
    "SearchHit": [
      "Method",
      "Model",
      "Node",
      "Source"
    ]
  }
};
      const result: PossibleTypesResultData = {
  "possibleTypes": {
    "Entity": [
      "Evidence",
      "Method",
      "MethodTreatment",
      "Model",
      "ModelTreatment",
      "Node",
      "Release",
      "Source"
    ],
    "SearchHit": [
      "Method",
      "Model",
      "Node",
      "Source"
    ]
  }
};
      export default result;
    