// The package ships no types; this covers the part the AI indicator uses.
declare module 'ml-logistic-regression' {
  import type { Matrix } from 'ml-matrix';

  interface TwoClassClassifier {
    weights: Matrix | null;
    train(features: Matrix, target: Matrix): void;
    testScores(features: Matrix): number[];
  }

  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    classifiers: TwoClassClassifier[];
    numberClasses: number;
    train(X: Matrix, Y: Matrix): void;
    predict(X: Matrix): number[];
    static load(model: {
      name: 'LogisticRegression';
      numSteps: number;
      learningRate: number;
      numberClasses: number;
      classifiers: { numSteps: number; learningRate: number; weights: null }[];
    }): LogisticRegression;
  }
}
