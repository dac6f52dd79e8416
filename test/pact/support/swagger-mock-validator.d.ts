/**
 * Types of `@pactflow/swagger-mock-validator` 14, which ships none. Only what
 * the OpenAPI gate uses.
 */
declare module '@pactflow/swagger-mock-validator' {
  export interface ValidationMessage {
    code: string
    message: string
    type: 'error' | 'warning'
    mockDetails?: { interactionDescription?: string; location?: string }
  }

  export interface ValidationOutcome {
    success: boolean
    failureReason?: string
    errors: ValidationMessage[]
    warnings: ValidationMessage[]
  }

  export interface SwaggerMockValidator {
    validate(options: {
      specPathOrUrl: string
      mockPathOrUrl: string
      providerName?: string
      tag?: string
      additionalPropertiesInResponse?: string
      requiredPropertiesInResponse?: string
    }): Promise<ValidationOutcome>
  }

  export const SwaggerMockValidatorFactory: {
    create(auth?: string): SwaggerMockValidator
  }
}
